/**
 * The payment object of the merchant API: the mapping from a payment row. Its zod schemas, from
 * which the OpenAPI document is made, are in object-schemas.ts (re-exported here). Amounts go back
 * to DZD numbers, times to ISO 8601.
 */
import type { Payment } from '../../../db/schema.js'
import { FAILURE_MESSAGES_EN } from '../../domain/failure-reasons.js'
import { receiptUrl } from '../../domain/public-urls.js'
import { storedDzdNumber } from '../../domain/stored-amount.js'
import { isShowableTime } from '../../domain/stored-time.js'
import type { PaymentObject } from './object-schemas.js'

export { type PaymentObject, paymentList, paymentObject } from './object-schemas.js'

const iso = (ms: number) => new Date(ms).toISOString()
// A time no Date can hold (written by other means) reads as none, like an unset one.
const isoOrNull = (ms: number | null) => (isShowableTime(ms) ? iso(ms) : null)

/** A payment row as the API's payment object. */
export function toPaymentObject(payment: Payment, opts: { publicUrl: string }): PaymentObject {
  return {
    id: payment.id,
    link_id: payment.linkId,
    status: payment.status,
    amount: storedDzdNumber(payment.amount),
    currency: 'DZD',
    customer: {
      name: payment.customerName,
      phone: payment.customerPhone,
      email: payment.customerEmail,
    },
    ref: payment.ref,
    // The checkout session paid through (null for a link's own payments).
    checkout_id: payment.checkoutId,
    metadata: payment.metadata,
    // A payment from before carts has no subtotal: its amount, with no discount nor fee.
    subtotal: storedDzdNumber(payment.subtotal ?? payment.amount),
    discount: storedDzdNumber(payment.discount),
    promo_code: payment.promoCode,
    fee: storedDzdNumber(payment.fee),
    line_items: (payment.lineItems ?? []).map((item) => ({
      product_id: item.productId,
      name: item.name,
      sku: item.sku,
      quantity: item.quantity,
      unit_price: storedDzdNumber(item.unitPrice),
      amount: storedDzdNumber(item.unitPrice * item.quantity),
    })),
    custom_fields: payment.customFields ?? {},
    language: payment.language,
    order_id: payment.orderId,
    order_number: payment.orderNumber,
    transaction_id: payment.transactionId,
    cib_transaction_id: payment.cibTransactionId,
    approval_code: payment.approvalCode,
    message: payment.message,
    failure_code: payment.failureCode,
    failure_message: payment.failureCode ? FAILURE_MESSAGES_EN[payment.failureCode] : null,
    receipt_url: receiptUrl(opts.publicUrl, payment.receiptId),
    created_at: iso(payment.createdAt),
    updated_at: iso(payment.updatedAt),
    paid_at: isoOrNull(payment.paidAt),
    beyond_max_payments: payment.beyondMaxPayments,
    source: payment.source,
  }
}
