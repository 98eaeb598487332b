/** API-key interface: bill payment (`POST /bills/pay`). Never retried. */
import * as z from 'zod'
import type { ClientContext } from '../core/context.js'
import { sendV1 } from '../core/context.js'
import type { JsonObject } from '../core/parse.js'
import { objectBody } from '../core/response.js'
import type { CallOptions } from '../core/transport.js'
import { validate } from '../core/validate.js'

// BillPaymentRequest's fields are not shown: the body is sent as given, only its shape is checked.
export const v1BillPaymentSchema = z.record(z.string(), z.unknown(), {
  error: 'must be a JSON object',
})

/** BillPaymentRequest: fields not described by the document, sent as given. */
export type V1BillPaymentRequest = JsonObject
/** OperationResponse of a bill payment. */
export type V1BillPaymentResponse = JsonObject

export interface V1Bills {
  /** `POST /bills/pay` with the body sent as given. */
  pay(body: V1BillPaymentRequest, options?: CallOptions): Promise<V1BillPaymentResponse>
}

/** The `bills` resource of the API-key interface. */
export function v1Bills(ctx: ClientContext): V1Bills {
  return {
    async pay(body, options) {
      const json = validate(v1BillPaymentSchema, body)
      const res = await sendV1(ctx, 'POST', 'bills/pay', { body: json, idempotent: false, options })
      return objectBody(res, 'bills/pay')
    },
  }
}
