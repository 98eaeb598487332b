/**
 * Starting a payment: the row is written first (`initiated`, holding one of the link's places),
 * then the gateway is asked for a card transaction, then the row becomes `pending` with the
 * gateway's ids. A gateway failure marks it `error`; the customer is never sent anywhere twice.
 */

import type { Language, Link, Payment } from '../../db/schema.js'
import type { SoldOutLine } from '../data/payment-reserve.js'
import { markError, markPending, reservePayment } from '../data/payments.js'
import type { AppDeps } from '../deps.js'
import type { CheckoutInput } from '../domain/checkout-input.js'
import { type OrderParts, orderAmount } from '../domain/order.js'
import { gatewayReturnUrl } from '../domain/return-url.js'
import { describe } from '../lib/describe-error.js'
import { centimesToDzdShort, truncateMemo } from '../lib/money.js'
import { logTransition } from './transition-log.js'

export type CheckoutResult =
  | { kind: 'redirect'; url: string; payment: Payment }
  | { kind: 'gateway_error'; payment: Payment }
  | {
      kind: 'unavailable'
      reason: 'in_progress' | 'completed' | 'inactive' | 'expired'
      retryAfterMs?: number
    }
  /** A deposit link's balance is now less than the part chosen: the form again, with it. */
  | { kind: 'balance_changed'; balance: number }
  /** A cart the stock cannot serve, or priced at a price changed since: the form is shown again. */
  | { kind: 'sold_out'; lines: SoldOutLine[] }
  | { kind: 'price_changed' }
  /** The order's promo code was closed or used up meanwhile: the form again, the field named. */
  | { kind: 'order_refused'; reason: 'promo_unavailable'; field: 'promo_code' }

type CheckoutDeps = Pick<AppDeps, 'db' | 'gateway' | 'merchantAccount' | 'clock' | 'log' | 'config'>

/** The phone in the international form the gateway prefers (`+213…`). */
function internationalPhone(phone: string): string {
  return phone.startsWith('0') ? `+213${phone.slice(1)}` : phone
}

/** Writes the payment, creates the card transaction and returns where to send the customer. */
export async function startCheckout(
  deps: CheckoutDeps,
  link: Link,
  input: CheckoutInput,
  language: Language,
  order?: OrderParts,
): Promise<CheckoutResult> {
  // A priced order (a cart, a discount, a fee) says what the card pays; else the link or the form.
  const amount = order ? orderAmount(order) : (link.amount ?? input.amount)
  if (amount === null) throw new TypeError('An open-amount checkout needs the amount')
  const reservation = await reservePayment(
    deps.db,
    {
      linkId: link.id,
      amount,
      customerName: input.name,
      customerPhone: input.phone,
      customerEmail: input.email,
      ref: input.ref,
      language,
      invoiceId: link.invoiceId,
      order,
    },
    deps.clock(),
  )
  if (!reservation.ok) {
    if (reservation.reason === 'sold_out') return { kind: 'sold_out', lines: reservation.lines }
    if (reservation.reason === 'price_changed') return { kind: 'price_changed' }
    if (reservation.reason === 'in_progress') {
      return { kind: 'unavailable', reason: 'in_progress', retryAfterMs: reservation.retryAfterMs }
    }
    if (reservation.reason === 'balance_changed')
      return { kind: 'balance_changed', balance: reservation.balance }
    if (reservation.reason === 'promo_unavailable')
      return { kind: 'order_refused', reason: 'promo_unavailable', field: 'promo_code' }
    return {
      kind: 'unavailable',
      reason: reservation.reason === 'not_found' ? 'inactive' : reservation.reason,
    }
  }
  const payment = reservation.payment
  const base = deps.config.publicUrl
  try {
    const created = await deps.gateway.card.create({
      account: deps.merchantAccount,
      amount: centimesToDzdShort(amount),
      full_name: input.name,
      phone: internationalPhone(input.phone),
      email: input.email,
      // Names the receipt in the signed message too, so a transaction whose ids a crash kept
      // from being stored can still be matched to this payment (src/payments/adopt.ts).
      return_url: gatewayReturnUrl(base, payment.receiptId),
      webhook_url: `${base}/webhooks/gateway`,
      ...(link.invoiceId ? { invoice_id: link.invoiceId } : {}),
      language,
      memo: truncateMemo(link.memo ?? link.title),
      keep_return_url: true,
    })
    const marked = await markPending(
      deps.db,
      payment.id,
      {
        transactionId: created.transaction_id,
        cibTransactionId: created.cib_transaction_id,
        paymentUrl: created.payment_url,
        orderId: created.cib_response?.orderId ?? null,
        // The order number is the card transaction's id (the check asks by
        // `order_number=<cib_transaction_id>`, gateway-facts.md): the card page shows it from the
        // start, so the receipt and the dashboard do too, before the outcome confirms it.
        orderNumber: created.cib_transaction_id,
        gatewayResponse: created.raw,
      },
      deps.clock(),
    )
    logTransition(deps.log, payment, 'initiated', 'pending')
    return { kind: 'redirect', url: created.payment_url, payment: marked.payment ?? payment }
  } catch (error) {
    const reason = describe(error)
    const failed = await markError(deps.db, payment.id, reason, deps.clock(), 'checkout')
    logTransition(deps.log, payment, 'initiated', 'error', reason)
    return { kind: 'gateway_error', payment: failed.payment ?? payment }
  }
}
