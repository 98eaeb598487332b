/**
 * What a payment's page shows, read from the database: its row, link, history (payment_events),
 * webhook deliveries, and the gateway's stored answers as definition lists and escaped JSON with
 * the credentials scrubbed (the answers carry none by design; a gateway that echoed one still
 * would not show it).
 */
import * as z from 'zod'
import type { AnswerView, PaymentDetail } from '../../views/dashboard/payment-detail-page.js'
import type { Config } from '../config.js'
import { getCheckoutById } from '../data/checkouts.js'
import type { Db } from '../data/db.js'
import { receiptDeposit } from '../data/deposits.js'
import { getLinkById } from '../data/links.js'
import { listPaymentEvents } from '../data/payment-events.js'
import { listPaymentInboxEvents } from '../data/payment-inbox.js'
import { getPaymentWithin, type PaymentScope } from '../data/payments.js'
import { answersOf } from '../domain/custom-fields.js'
import { gatewayMessageOf, showableGatewayText } from '../domain/failure-reasons.js'
import { scrubValue } from '../lib/redact.js'

/** A payment id as Paylinks makes them (`pay_` and base62); anything else is not one. */
export const paymentIdParam = z.string().regex(/^pay_[0-9A-Za-z]{1,64}$/)

// The fields of each answer worth reading at a glance (gateway-facts.md), by their own names.
const CREATION_FIELDS = ['success', 'status', 'transaction_id', 'cib_transaction_id', 'amount']
const CREATION_NESTED = ['errorCode', 'orderId']
const CHECK_FIELDS = [
  'orderStatus',
  'errorCode',
  'errorMessage',
  'actionCode',
  'actionCodeDescription',
  'respCode',
  'respCode_desc',
  'approvalCode',
  'Amount',
  'currency',
]

/** The most JSON text shown of one stored answer. */
const JSON_MAX = 20_000

const isObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v)

function answerView(
  value: unknown,
  names: string[],
  secrets: string[],
  nested?: string,
): AnswerView | null {
  if (value === null || value === undefined) return null
  const clean = scrubValue(value, secrets)
  const fields: Array<[string, string]> = []
  const pick = (obj: Record<string, unknown>, prefix: string, keys: string[]) => {
    for (const key of keys) {
      const shown = showableGatewayText(typeof obj[key] === 'boolean' ? String(obj[key]) : obj[key])
      if (shown !== null) fields.push([`${prefix}${key}`, shown])
    }
  }
  if (isObject(clean)) {
    pick(clean, '', names)
    if (nested && isObject(clean[nested])) pick(clean[nested], `${nested}.`, CREATION_NESTED)
  }
  const json = JSON.stringify(clean, null, 2) ?? ''
  return { fields, json: json.length > JSON_MAX ? `${json.slice(0, JSON_MAX)}\n…` : json }
}

/**
 * Everything the payment's page shows, or null when no payment has this id within `scope` (what
 * the viewer may see, src/auth/visibility.ts).
 */
export async function loadPaymentDetail(
  db: Db,
  config: Config,
  id: string,
  scope: PaymentScope,
): Promise<PaymentDetail | null> {
  const payment = await getPaymentWithin(db, id, scope)
  if (!payment) return null
  const [link, events, webhooks, checkout] = await Promise.all([
    getLinkById(db, payment.linkId),
    listPaymentEvents(db, payment.id),
    listPaymentInboxEvents(db, payment),
    payment.checkoutId ? getCheckoutById(db, payment.checkoutId) : null,
  ])
  const secrets = [config.gatewaySecretKey, config.gatewayApiKey, config.adminToken].filter(
    (s): s is string => typeof s === 'string',
  )
  return {
    payment,
    link: link ? { id: link.id, title: link.title } : null,
    answers: answersOf(link?.customFields, payment.customFields),
    checkout,
    events,
    webhooks,
    gatewayMessage: gatewayMessageOf(payment.checkResponse) ?? showableGatewayText(payment.message),
    creation: answerView(payment.gatewayResponse, CREATION_FIELDS, secrets, 'cib_response'),
    check: answerView(payment.checkResponse, CHECK_FIELDS, secrets),
    deposit: await receiptDeposit(db, payment, link),
  }
}
