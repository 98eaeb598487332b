/**
 * Payments as CSV (RFC 4180: CRLF line ends, fields with a comma, quote or line break quoted,
 * quotes doubled). A cell starting with = + - @ (or a tab or carriage return) gets a leading
 * apostrophe, so a spreadsheet shows a customer's "=HYPERLINK(…)" as text instead of running it.
 */
import type { Payment } from '../../db/schema.js'
import { receiptUrl } from '../api/objects.js'
import { FAILURE_MESSAGES_EN } from '../domain/failure-reasons.js'
import { storedDzdText } from '../domain/stored-amount.js'
import { isShowableTime } from '../domain/stored-time.js'
import { toAlgiersIso } from './algiers-time.js'

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
] as const

/** One cell: guarded against formulas, then quoted when RFC 4180 asks for it. */
export function csvCell(value: string | number | null | undefined): string {
  let text = value === null || value === undefined ? '' : String(value)
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text
}

/** One CSV line with its CRLF. */
export function csvLine(cells: readonly (string | number | null | undefined)[]): string {
  return `${cells.map(csvCell).join(',')}\r\n`
}

/** A payment's row; amounts in DZD with two decimals, times in Algiers with their offset. */
export function paymentCsvRow(
  payment: Payment,
  link: { title: string } | undefined,
  publicUrl: string,
): string {
  return csvLine([
    toAlgiersIso(payment.createdAt),
    payment.id,
    payment.linkId,
    link?.title ?? '',
    payment.status,
    storedDzdText(payment.amount),
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
