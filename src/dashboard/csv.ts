/**
 * Payments as CSV (RFC 4180: CRLF line ends, quotes doubled), safe to open in a spreadsheet in any
 * locale: English Excel splits on commas, French and Arabic Excel on semicolons, so a cell holding
 * a comma, semicolon, quote, tab or line break is quoted, and every place a spreadsheet might start
 * a cell — the cell's start, or just after a comma, semicolon, tab or line break inside it — that
 * begins with = + - @ (or a tab or carriage return) gets an apostrophe, as OWASP advises. A
 * customer's "=HYPERLINK(…)" or ";=1+1" then reads as text instead of running.
 */

import type { Payment } from '../../db/schema.js'
import { toAlgiersIso } from '../domain/algiers-time.js'
import { linesText } from '../domain/cart.js'
import { answersLine } from '../domain/custom-fields.js'
import { FAILURE_MESSAGES_EN } from '../domain/failure-reasons.js'
import type { CustomField } from '../domain/order.js'
import { receiptUrl } from '../domain/public-urls.js'
import { storedDzdText } from '../domain/stored-amount.js'
import { isShowableTime } from '../domain/stored-time.js'

export const CSV_HEADER = [
  'created_at',
  'payment_id',
  'link_id',
  'link_title',
  'status',
  'amount_dzd',
  'currency',
  'customer_name',
  'customer_phone',
  'customer_email',
  'ref',
  'order_number',
  'order_id',
  'transaction_id',
  'cib_transaction_id',
  'approval_code',
  'message',
  'failure_code',
  'failure_message',
  'paid_at',
  'receipt_url',
  // Where the payment's link was made: dashboard, api or till (links older than it: dashboard).
  'source',
  // The metadata the payment was made with, as JSON text (`{}` when none), guarded like any text.
  'metadata',
  // Selling: the amount before discount and fee (DZD; an older payment's amount), and a cart's
  // lines as `2 × Tapis (TAP-1); 1 × Coussin` (empty when it sold no products).
  'subtotal',
  // A promo code's discount and the code as the merchant wrote it; the fee the customer paid on
  // top (both 0.00 when none): the amount is what the card paid, these say what it was made of.
  'discount',
  'promo_code',
  'fee',
  'line_items',
  // The customer's answers to the link's questions: `wilaya=16 — Alger; address=…`.
  'custom_fields',
] as const

/**
 * An amount the export writes itself from stored integer centimes (`1500.00`): never a customer's
 * text, so a plain decimal is written as it is and a negative one (a corrupt row) stays a number a
 * spreadsheet can add up — `-12.50` is a number to Excel and LibreOffice, not a formula. Anything
 * else in its place is guarded like text.
 */
export type CsvAmount = { readonly amount: string | null }

/** Marks export-made amount text (see CsvAmount). */
export const csvAmount = (amount: string | null): CsvAmount => ({ amount })

export type CsvValue = string | number | null | undefined | CsvAmount

const PLAIN_DECIMAL = /^-?\d+(\.\d+)?$/
// Every place a spreadsheet may start a cell — the cell's start, or just after a separator of some
// locale, a tab or a line break (for a reader that splits lines before quotes) — where the text
// begins with = + - @, a tab or a carriage return, even behind spaces or quotes (skipped by some
// readers: LibreOffice's "trim spaces", a quote left open by a naive split).
const FORMULA_STARTS = /(?<=^|[,;\t\r\n])(?=[ "]*[=+\-@\t\r])/g
const NEEDS_QUOTES = /[",;\t\r\n]/

/** One cell: guarded against formulas, then quoted when it holds a separator of any locale. */
export function csvCell(value: CsvValue): string {
  if (typeof value === 'object' && value !== null) {
    if (value.amount !== null && PLAIN_DECIMAL.test(value.amount)) return value.amount
    return csvCell(value.amount)
  }
  // A JavaScript number's text is digits, '-', '.' and 'e+': a spreadsheet reads it as a number.
  if (typeof value === 'number') return String(value)
  const text = (value ?? '').replace(FORMULA_STARTS, "'")
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text
}

/** One CSV line with its CRLF. */
export function csvLine(cells: readonly CsvValue[]): string {
  return `${cells.map(csvCell).join(',')}\r\n`
}

/** What a payment's row shows of its link: its title, and its questions (to word a wilaya). */
export type CsvLink = { title: string; customFields?: readonly CustomField[] | null }

/** A payment's row; amounts in DZD with two decimals, times in Algiers with their offset. */
export function paymentCsvRow(
  payment: Payment,
  link: CsvLink | undefined,
  publicUrl: string,
): string {
  return csvLine([
    toAlgiersIso(payment.createdAt),
    payment.id,
    payment.linkId,
    link?.title ?? '',
    payment.status,
    csvAmount(storedDzdText(payment.amount)),
    'DZD',
    payment.customerName,
    payment.customerPhone,
    payment.customerEmail,
    payment.ref,
    payment.orderNumber,
    payment.orderId,
    payment.transactionId,
    payment.cibTransactionId,
    payment.approvalCode,
    payment.message,
    payment.failureCode,
    payment.failureCode ? FAILURE_MESSAGES_EN[payment.failureCode] : null,
    isShowableTime(payment.paidAt) ? toAlgiersIso(payment.paidAt) : '',
    receiptUrl(publicUrl, payment.receiptId),
    payment.source,
    JSON.stringify(payment.metadata),
    csvAmount(storedDzdText(payment.subtotal ?? payment.amount)),
    csvAmount(storedDzdText(payment.discount)),
    payment.promoCode,
    csvAmount(storedDzdText(payment.fee)),
    payment.lineItems?.length ? linesText(payment.lineItems) : '',
    answersLine(payment.customFields, link?.customFields, 'fr'),
  ])
}

/**
 * A byte stream that asks `chunks` for its next piece only when the reader wants more, so an export
 * of any length holds one piece in memory at a time (and stops reading when the download stops).
 */
export function textStream(chunks: AsyncIterator<string>): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder()
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const next = await chunks.next()
        if (next.done) controller.close()
        else controller.enqueue(encoder.encode(next.value))
      },
      async cancel() {
        await chunks.return?.()
      },
    },
    { highWaterMark: 1 },
  )
}
