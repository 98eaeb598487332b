/**
 * The zod schemas of the merchant API's payment object and of its list page. The OpenAPI document
 * is made from them (src/api/openapi-schemas.ts) and the tests check the answers against them; the
 * handlers build the answers with objects.ts, which does not parse them. Nothing the Worker runs
 * imports a value from here, so its upload does not carry them.
 */
import * as z from 'zod'
import { FAILURE_CODES, LANGUAGES, LINK_SOURCES, PAYMENT_STATUSES } from '../../../db/schema.js'
import { dzd, metadata, page, time } from '../object-fields.js'

/** A line of a payment: the product as it was sold, its name and unit price of that moment. */
export const soldLineItem = z.object({
  product_id: z.string(),
  name: z.string(),
  sku: z.string().nullable(),
  quantity: z.number().int(),
  unit_price: dzd,
  amount: dzd.describe('unit_price × quantity'),
})

export const paymentObject = z.object({
  id: z.string(),
  link_id: z.string(),
  status: z.enum(PAYMENT_STATUSES),
  amount: dzd,
  currency: z.literal('DZD'),
  customer: z.object({ name: z.string(), phone: z.string(), email: z.string() }),
  ref: z.string().nullable(),
  checkout_id: z
    .string()
    .nullable()
    .describe('the checkout session the payment was made in; null for a payment on a link'),
  metadata: metadata.describe(
    "the metadata of the payment's link when the payment started (`{}` when none); a later change of the link's metadata leaves it as it was",
  ),
  subtotal: dzd.describe(
    "before the discount and the fee: the cart's total, or the amount paid on the link (amount = subtotal − discount + fee)",
  ),
  discount: dzd.describe('taken off by the promo code (0 when none)'),
  promo_code: z.string().nullable().describe('the promo code used, as the merchant wrote it'),
  fee: dzd.describe("the gateway's fee paid by the customer on top (0 when the merchant pays it)"),
  line_items: z
    .array(soldLineItem)
    .describe('the products sold, with their names and prices of that moment (empty when none)'),
  custom_fields: z
    .record(z.string(), z.string())
    .describe("the customer's answers to the link's custom fields, key → value (`{}` when none)"),
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
      "where the payment's link was made: the dashboard, the API, the till (point of sale), or a checkout session; links made before this field read as dashboard",
    ),
})
export type PaymentObject = z.infer<typeof paymentObject>

/** A page of payments, newest first. */
export const paymentList = page(paymentObject)
