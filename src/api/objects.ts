/**
 * The link and payment objects of the merchant API: their zod schemas (for the OpenAPI document)
 * and the mapping from database rows. Amounts go back to DZD numbers, times to ISO 8601.
 */
import * as z from 'zod'
import {
  FAILURE_CODES,
  LANGUAGES,
  LINK_SOURCES,
  type Link,
  type LinkSource,
  PAYMENT_STATUSES,
  type Payment,
} from '../../db/schema.js'
import { FAILURE_MESSAGES_EN } from '../domain/failure-reasons.js'
import { LINK_STATUSES, linkStatus } from '../domain/link-status.js'
import { storedDzdNumber } from '../domain/stored-amount.js'
import { isShowableTime } from '../domain/stored-time.js'

const dzd = z.number().describe('DZD, at most two decimals')
const time = z.string().describe('ISO 8601, UTC')

export const linkObject = z.object({
  id: z.string(),
  slug: z.string(),
  url: z.string(),
  qr_svg_url: z.string(),
  qr_png_url: z.string(),
  poster_url: z.string(),
  title: z.string(),
  description: z.string().nullable(),
  amount: dzd.nullable().describe('fixed and invoice links; null for an open amount'),
  amount_min: dzd.nullable(),
  amount_max: dzd.nullable(),
  invoice_id: z.string().nullable(),
  invoice_items: z
    .array(z.object({ description: z.string(), quantity: z.number().int(), unit_price: dzd }))
    .nullable(),
  max_payments: z.number().int().nullable(),
  expires_at: time.nullable(),
  language: z.enum(LANGUAGES),
  memo: z.string().nullable(),
  success_message: z.string().nullable(),
  success_url: z.string().nullable(),
  active: z.boolean(),
  inactive_message: z.string().nullable(),
  status: z.enum(LINK_STATUSES),
  paid_count: z.number().int(),
  paid_total: dzd,
  created_at: time,
  updated_at: time,
})
export type LinkObject = z.infer<typeof linkObject>

export const paymentObject = z.object({
  id: z.string(),
  link_id: z.string(),
  status: z.enum(PAYMENT_STATUSES),
  amount: dzd,
  currency: z.literal('DZD'),
  customer: z.object({ name: z.string(), phone: z.string(), email: z.string() }),
  ref: z.string().nullable(),
  language: z.enum(LANGUAGES),
  order_id: z.string().nullable().describe("the card network's order id"),
  order_number: z.string().nullable(),
  transaction_id: z.string().nullable(),
  cib_transaction_id: z.string().nullable(),
  approval_code: z.string().nullable(),
  message: z.string().nullable().describe("the gateway's message to the customer"),
  failure_code: z
    .enum(FAILURE_CODES)
    .nullable()
    .describe(
      "why the payment did not succeed, read from the card network's answer; set with failed, canceled, expired and error, null otherwise",
    ),
  failure_message: z.string().nullable().describe('failure_code in English words'),
  receipt_url: z.string(),
  created_at: time,
  updated_at: time,
  paid_at: time.nullable(),
  beyond_max_payments: z.boolean(),
  source: z
    .enum(LINK_SOURCES)
    .describe(
      "where the payment's link was made: the dashboard, the API, or the till (point of sale); links made before this field read as dashboard",
    ),
})
export type PaymentObject = z.infer<typeof paymentObject>

const iso = (ms: number) => new Date(ms).toISOString()
// A time no Date can hold (written by other means) reads as none, like an unset one.
const isoOrNull = (ms: number | null) => (isShowableTime(ms) ? iso(ms) : null)
const dzdOrNull = (c: number | null) => (c === null ? null : storedDzdNumber(c))
const base = (publicUrl: string) => publicUrl.replace(/\/+$/, '')

/** The customer-facing URLs of a link. */
export function linkUrls(publicUrl: string, slug: string) {
  const url = `${base(publicUrl)}/l/${encodeURIComponent(slug)}`
  return {
    url,
    qr_svg_url: `${url}/qr.svg`,
    qr_png_url: `${url}/qr.png`,
    poster_url: `${url}/poster`,
  }
}

/** The receipt URL of a payment (the gateway's `return_url` adds its id in the query: return-url.ts). */
export function receiptUrl(publicUrl: string, receiptId: string): string {
  return `${base(publicUrl)}/r/${encodeURIComponent(receiptId)}`
}

/** A link row, with its paid aggregates, as the API's link object. */
export function toLinkObject(
  link: Link,
  stats: { paidCount: number; paidTotal: number },
  opts: { publicUrl: string; now: number },
): LinkObject {
  return {
    id: link.id,
    slug: link.slug,
    ...linkUrls(opts.publicUrl, link.slug),
    title: link.title,
    description: link.description,
    amount: dzdOrNull(link.amount),
    amount_min: dzdOrNull(link.amountMin),
    amount_max: dzdOrNull(link.amountMax),
    invoice_id: link.invoiceId,
    invoice_items:
      link.invoiceItems?.map((i) => ({
        description: i.description,
        quantity: i.quantity,
        unit_price: storedDzdNumber(i.unitPrice),
      })) ?? null,
    max_payments: link.maxPayments,
    expires_at: isoOrNull(link.expiresAt),
    language: link.language,
    memo: link.memo,
    success_message: link.successMessage,
    success_url: link.successUrl,
    active: link.active,
    inactive_message: link.inactiveMessage,
    status: linkStatus(link, stats, opts.now),
    paid_count: stats.paidCount,
    paid_total: storedDzdNumber(stats.paidTotal),
    created_at: iso(link.createdAt),
    updated_at: iso(link.updatedAt),
  }
}

/** A payment row as the API's payment object. */
export function toPaymentObject(
  payment: Payment,
  opts: { publicUrl: string; source: LinkSource | null },
): PaymentObject {
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
    source: opts.source ?? 'dashboard',
  }
}
