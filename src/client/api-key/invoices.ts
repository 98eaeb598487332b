/** API-key interface: merchant invoices (`GET` and `POST /merchant/invoices`). */
import * as z from 'zod'
import type { ClientContext } from '../core/context.js'
import { sendV1 } from '../core/context.js'
import type { Json, JsonObject } from '../core/parse.js'
import { objectBody } from '../core/response.js'
import type { CallOptions } from '../core/transport.js'
import { validate } from '../core/validate.js'

// CreateInvoiceRequest's fields are not shown: the body is sent as given, only its shape is checked.
export const v1CreateInvoiceSchema = z.record(z.string(), z.unknown(), {
  error: 'must be a JSON object',
})

/** CreateInvoiceRequest: fields not described by the document, sent as given. */
export type V1CreateInvoiceRequest = JsonObject
/** The 201 answer of invoice creation: body not described by the document. */
export type V1CreatedInvoice = JsonObject
/** The list of invoices: body not described (an array or an object, as the gateway sends it). */
export type V1InvoiceList = Json

export interface V1Invoices {
  /** `GET /merchant/invoices`. */
  list(options?: CallOptions): Promise<V1InvoiceList>
  /** `POST /merchant/invoices` (answers 201). Never retried. */
  create(body: V1CreateInvoiceRequest, options?: CallOptions): Promise<V1CreatedInvoice>
}

/** The `invoices` resource of the API-key interface. */
export function v1Invoices(ctx: ClientContext): V1Invoices {
  return {
    async list(options) {
      const res = await sendV1(ctx, 'GET', 'merchant/invoices', { idempotent: true, options })
      return res.data as Json
    },
    async create(body, options) {
      const json = validate(v1CreateInvoiceSchema, body)
      const res = await sendV1(ctx, 'POST', 'merchant/invoices', {
        body: json,
        idempotent: false,
        options,
      })
      return objectBody(res, 'merchant/invoices')
    },
  }
}
