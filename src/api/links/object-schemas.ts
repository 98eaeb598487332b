/**
 * The zod schemas of the merchant API's link object and of its list page. The OpenAPI document is
 * made from them (src/api/openapi-schemas.ts) and the tests check the answers against them; the
 * handlers build the answers with objects.ts, which does not parse them. Nothing the Worker runs
 * imports a value from here, so its upload does not carry them.
 */
import * as z from 'zod'
import { LANGUAGES } from '../../../db/schema.js'
import { LINK_STATUSES } from '../../domain/link-status.js'
import { CUSTOM_FIELD_TYPES } from '../../domain/order.js'
import { dzd, metadata, page, time } from '../object-fields.js'

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
  line_items: z
    .array(
      z.object({
        product_id: z.string(),
        quantity: z.number().int(),
        adjustable_quantity: z
          .object({ min: z.number().int(), max: z.number().int() })
          .nullable()
          .describe('the range the customer chooses the quantity in; null: fixed'),
      }),
    )
    .nullable()
    .describe("a cart: the products sold; `amount` is their price × quantity at today's prices"),
  max_payments: z.number().int().nullable(),
  expires_at: time.nullable(),
  language: z.enum(LANGUAGES),
  memo: z.string().nullable(),
  success_message: z.string().nullable(),
  success_url: z.string().nullable(),
  active: z.boolean(),
  inactive_message: z.string().nullable(),
  allow_promo_codes: z.boolean().describe('whether the customer may enter a promo code'),
  customer_fee: z
    .boolean()
    .describe('whether the customer pays the fee of the setting customer_fee_percent'),
  metadata: metadata.describe(
    'your own keys and texts (`{}` when none); each payment made from the link keeps a copy as it was then',
  ),
  allow_partial: z
    .object({ min_amount: dzd })
    .nullable()
    .describe('deposits: each payment at least min_amount, or the balance when less'),
  custom_fields: z
    .array(
      z.object({
        key: z.string(),
        label: z.string(),
        type: z.enum(CUSTOM_FIELD_TYPES),
        options: z.array(z.string()).nullable().describe("a select's choices; null otherwise"),
        required: z.boolean(),
      }),
    )
    .describe('the questions the customer answers (`[]` when none); answers are on each payment'),
  status: z.enum(LINK_STATUSES),
  paid_count: z.number().int(),
  paid_total: dzd.describe('what was paid toward the amount, customer fees apart'),
  amount_due: dzd.nullable().describe('the amount to pay in all; null for an open amount'),
  balance: dzd
    .nullable()
    .describe('amount_due less paid_total, never below 0; null for an open amount'),
  created_at: time,
  updated_at: time,
})
export type LinkObject = z.infer<typeof linkObject>

/** A page of links, newest first. */
export const linkList = page(linkObject)
