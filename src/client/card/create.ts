/**
 * `GET {site}/make-cib-transaction/?…&redirect=no` (or the sandbox path): starts a card payment and
 * returns the payment page URL. It creates a money movement, so it is never retried.
 */
import { type ClientContext, sendSite } from '../core/context.js'
import { GatewayApiError, GatewayResponseError } from '../core/errors.js'
import { normalise } from '../core/normalise.js'
import {
  asBoolean,
  asString,
  type JsonObject,
  readErrorCode,
  readErrorMessage,
} from '../core/parse.js'
import { objectBody } from '../core/response.js'
import type { CallOptions } from '../core/transport.js'
import { buildQuery, joinUrl } from '../core/url.js'
import { type CardPaymentParams, cardQuery } from './params.js'

/** The card network's part of the creation answer. */
export interface CibResponse {
  errorCode?: string
  orderId?: string
  formUrl?: string
  [key: string]: unknown
}

/** A created card transaction. `cib_transaction_id` is the id to check the payment with. */
export interface CardTransaction {
  success: true
  /** The gateway's own id (UUID). */
  transaction_id: string
  /** The card network's id, always text (the gateway often sends a JSON number). */
  cib_transaction_id: string
  payment_url: string
  /** DZD decimal text as the gateway echoes it. */
  amount: string | undefined
  status: string | undefined
  more_info_url: string | undefined
  webhook_url: string | undefined
  cib_response: CibResponse
  /** The answer as received. */
  raw: JsonObject
}

/** The path of the card endpoint, under `/sandbox` when the client is in sandbox mode. */
export function cardPath(ctx: ClientContext, endpoint: string): string {
  return ctx.sandbox ? `sandbox/${endpoint}/` : `${endpoint}/`
}

/** Creates a card transaction (redirect=no) and reads its JSON answer. */
export async function createCardTransaction(
  ctx: ClientContext,
  params: CardPaymentParams,
  options?: CallOptions,
): Promise<CardTransaction> {
  const query = cardQuery(params, 'no')
  const path = cardPath(ctx, 'make-cib-transaction')
  // The customer's name, phone and e-mail travel in the query: no error may quote them.
  const personal = [query.full_name, query.phone, query.email, params.phone].filter(
    (v): v is string => typeof v === 'string',
  )
  const res = await sendSite(ctx, 'GET', path, { query, idempotent: false, options, personal })
  const body = objectBody(res, path)
  const paymentUrl = asString(body.payment_url)
  if (asBoolean(body.success) === false || !paymentUrl) {
    const scrubbed = res.scrub(body)
    const said = readErrorMessage(scrubbed)
    throw new GatewayApiError(
      `The gateway did not create the card transaction: ${said ?? 'its answer has no payment_url'}. ` +
        'Check the parameters and the merchant account; the customer was not charged.',
      { status: res.status, body: scrubbed, code: readErrorCode(scrubbed), request: res.request },
    )
  }
  const cibTransactionId = asString(body.cib_transaction_id)
  if (!cibTransactionId)
    throw new GatewayResponseError(
      'The gateway created a card transaction without cib_transaction_id, so it could not be checked. ' +
        'Do not send the customer to it; try again.',
      { status: res.status, body: res.scrub(body), request: res.request },
    )
  return {
    success: true,
    transaction_id: asString(body.transaction_id) ?? '',
    cib_transaction_id: cibTransactionId,
    payment_url: paymentUrl,
    amount: asString(body.amount),
    status: asString(body.status),
    more_info_url: asString(body.more_info_url),
    webhook_url: asString(body.webhook_url),
    cib_response: normalise(body.cib_response, {
      errorCode: 'string',
      orderId: 'string',
      formUrl: 'string',
    }) as CibResponse,
    raw: body,
  }
}

/** The `redirect=yes` URL a browser can be sent to; nothing is sent. */
export function cardRedirectUrl(ctx: ClientContext, params: CardPaymentParams): string {
  const query = cardQuery(params, 'yes')
  return joinUrl(ctx.siteUrl, cardPath(ctx, 'make-cib-transaction')) + buildQuery(query)
}
