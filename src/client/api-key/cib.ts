/** API-key interface: card transactions (`POST /cib/transaction`, `POST /cib/transaction/check`). */
import * as z from 'zod'
import { centimesToDzdNumber, parseDzd } from '../../lib/money.js'
import type { ClientContext } from '../core/context.js'
import { sendV1 } from '../core/context.js'
import type { JsonObject } from '../core/parse.js'
import { objectBody } from '../core/response.js'
import type { CallOptions } from '../core/transport.js'
import { dzdAmount, httpUrl, identifier, validate } from '../core/validate.js'

// CibTransactionRequest may have further properties the document does not show: keep them.
export const v1CibTransactionSchema = z.looseObject({
  amount: dzdAmount(50).transform((v) => centimesToDzdNumber(parseDzd(v)!)),
  currency: z.literal('DZD', { error: 'must be DZD' }).default('DZD'),
  order_id: identifier(),
  return_url: httpUrl(),
  description: z.string({ error: 'must be a string' }).optional(),
})

// CibCheckRequest identifies the transaction by order number; other fields are not shown.
export const v1CibCheckSchema = z.looseObject({ order_number: identifier() })

/** CibTransactionRequest; `currency` defaults to DZD, the amount is DZD (≥ 50, two decimals). */
export type V1CibTransactionRequest = z.input<typeof v1CibTransactionSchema>
/** CibCheckRequest: the transaction's order number. */
export type V1CibCheckRequest = z.input<typeof v1CibCheckSchema>
/** CibTransactionResponse (carries the redirect URL); fields not described by the document. */
export type V1CibTransactionResponse = JsonObject
/** CibCheckResponse (payment confirmation); fields not described by the document. */
export type V1CibCheckResponse = JsonObject

export interface V1Cib {
  /** `POST /cib/transaction`: starts a card payment. Never retried. */
  create(body: V1CibTransactionRequest, options?: CallOptions): Promise<V1CibTransactionResponse>
  /** `POST /cib/transaction/check`: a read, retried on transient failures. */
  check(body: V1CibCheckRequest, options?: CallOptions): Promise<V1CibCheckResponse>
}

/** The `cib` resource of the API-key interface. */
export function v1Cib(ctx: ClientContext): V1Cib {
  return {
    async create(body, options) {
      const json = validate(v1CibTransactionSchema, body)
      const res = await sendV1(ctx, 'POST', 'cib/transaction', {
        body: json,
        idempotent: false,
        options,
      })
      return objectBody(res, 'cib/transaction')
    },
    async check(body, options) {
      const json = validate(v1CibCheckSchema, body)
      const res = await sendV1(ctx, 'POST', 'cib/transaction/check', {
        body: json,
        idempotent: true,
        options,
      })
      return objectBody(res, 'cib/transaction/check')
    },
  }
}
