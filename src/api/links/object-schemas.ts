/**
 * The zod schemas of the merchant API's link and payment objects and of their list pages. The
 * OpenAPI document is made from them (src/api/openapi-schemas.ts) and the tests check the answers
 * against them; the handlers build the answers with objects.ts, which does not parse them. Nothing
 * the Worker runs imports a value from here, so its upload does not carry them.
 */
import * as z from 'zod'
import { FAILURE_CODES, LANGUAGES, LINK_SOURCES, PAYMENT_STATUSES } from '../../../db/schema.js'
import { LINK_STATUSES } from '../../domain/link-status.js'

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

const page = <T extends z.ZodType>(item: T) =>
  z.object({
    data: z.array(item),
    has_more: z.boolean().describe('whether another page follows'),
    next_cursor: z
      .string()
      .nullable()
      .describe('pass it as `cursor` to read the next page; null on the last page'),
  })

/** A page of links, newest first. */
export const linkList = page(linkObject)
/** A page of payments, newest first. */
export const paymentList = page(paymentObject)
