/** The receipt as its views (page, PDF, e-mail) show it, from a payment row. */
import type { FailureCode, InvoiceItem, Payment } from '../../db/schema.js'
import type { Language } from '../config.js'
import type { Centimes } from '../lib/money.js'
import type { BrandContacts } from './brand.js'
import { answersOf, type CustomFieldAnswer } from './custom-fields.js'
import { gatewayMessageOf, showableGatewayText } from './failure-reasons.js'
import type { CustomField, SoldLineItem } from './order.js'

/** The receipt as the page, the PDF and the e-mail show it (drawn by views/receipt.tsx). */
export interface ReceiptView {
  receiptId: string
  status: 'initiated' | 'pending' | 'paid' | 'failed' | 'canceled' | 'expired' | 'error'
  amount: Centimes
  linkTitle: string
  linkSlug: string
  /** The gateway's own message (untrusted, already made showable: failure-reasons.ts). */
  gatewayMessage: string | null
  failureCode: FailureCode | null
  orderId: string | null
  orderNumber: string | null
  approvalCode: string | null
  paidAt: number | null
  updatedAt: number
  ref: string | null
  customerName: string
  successMessage: string | null
  successUrl: string | null
  /** A part of a deposit link's amount: what stood paid and remained right after it. */
  deposit?: ReceiptDeposit | null
  /** The customer's answers to the link's questions, labelled, in the link's order. */
  customFields?: CustomFieldAnswer[] | undefined
  /** A cart's lines as sold (names and unit prices then), and their subtotal; null otherwise. */
  lineItems?: SoldLineItem[] | null
  subtotal?: Centimes | null
  /**
   * The order's parts when a promo code or the customer's fee changed what was paid: the
   * subtotal, the discount with its code, and the fee (centimes); null for any other payment.
   */
  promo?: { subtotal: Centimes; discount: Centimes; code: string | null; fee: Centimes } | null
}

/**
 * A deposit payment on its receipt, in centimes: the link's amount, what was paid toward it up to
 * and including this payment (the parts paid before it, in the order they were paid), and what
 * remained then — 0 on the part that paid it in full (src/data/deposits.ts).
 */
export interface ReceiptDeposit {
  total: Centimes
  paid: Centimes
  remaining: Centimes
}

/** What the receipt views show of a payment. */
export function receiptView(
  payment: Payment,
  linkTitle: string,
  linkSlug: string,
  successMessage: string | null,
  successUrl: string | null,
  /** The link's questions, which label the payment's answers. */
  fields?: readonly CustomField[] | null,
): ReceiptView {
  return {
    receiptId: payment.receiptId,
    status: payment.status,
    amount: payment.amount,
    linkTitle,
    linkSlug,
    // The stored check answer's own words; the message column for payments stored without it.
    gatewayMessage: gatewayMessageOf(payment.checkResponse) ?? showableGatewayText(payment.message),
    failureCode: payment.failureCode,
    orderId: payment.orderId ?? null,
    orderNumber: payment.orderNumber,
    approvalCode: payment.approvalCode,
    paidAt: payment.paidAt,
    updatedAt: payment.updatedAt,
    ref: payment.ref,
    customerName: payment.customerName,
    successMessage,
    successUrl,
    customFields: answersOf(fields, payment.customFields),
    lineItems: payment.lineItems?.length ? payment.lineItems : null,
    subtotal: payment.subtotal ?? null,
    promo:
      payment.discount > 0 || payment.fee > 0
        ? {
            subtotal: payment.subtotal ?? payment.amount,
            discount: payment.discount,
            code: payment.promoCode,
            fee: payment.fee,
          }
        : null,
  }
}

/** What a receipt PDF (and a receipt e-mail) is made from (src/pdf/receipt-input.ts). */
export interface ReceiptPdfInput {
  lang: Language
  merchantName: string
  /** The merchant's contact details and receipt footer from the settings, when set. */
  merchantContacts?: BrandContacts | null | undefined
  receiptFooter?: string | null | undefined
  testMode: boolean
  receipt: ReceiptView
  /** The receipt page's address, printed at the foot. */
  receiptUrl: string
  /** The link's invoice items (unit prices in centimes), listed with the total; none: not listed. */
  items?: readonly InvoiceItem[] | null | undefined
  /** The brand's logo as stored (PNG, JPEG or WebP), for the header; none: the name alone. */
  logo?: { contentType: string; bytes: Uint8Array } | null | undefined
}
