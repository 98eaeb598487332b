/**
 * The create-checkout body of the merchant API and the query string of its list, as zod schemas:
 * the handlers parse with them and the OpenAPI document is made from them. Amounts arrive as DZD
 * JSON numbers and leave as integer centimes; the rules that span several fields (amount or line
 * items, a product or a name and price) are input.ts's. Rules answer with problem codes.
 */
import * as z from 'zod'
import { CHECKOUT_STATUSES, LANGUAGES } from '../../../db/schema.js'
import { cleanText } from '../../domain/clean-text.js'
import { customFieldsBody } from '../custom-fields.js'
import { dzdAmount, httpUrl, optionalText, text, wrongType } from '../links/schemas.js'
import { newMetadata } from '../metadata.js'
import { cursor, limit } from '../query-fields.js'

/** The most line items a checkout takes. */
export const MAX_LINE_ITEMS = 20
/** The most of one line item. */
export const MAX_QUANTITY = 999
/** How long a checkout stays open, in seconds: the bounds and the default. */
export const EXPIRES_IN = { min: 300, max: 86_400, default: 1_800 } as const

/**
 * One line: a name, a quantity and a unit price, or a product of the catalogue and a quantity.
 * Read as one object so each missing or extra field is named (input.ts says which combination).
 */
const lineItem = z
  .strictObject(
    {
      name: text(200).optional().describe('What the customer buys; with `unit_price`.'),
      quantity: z
        .number(wrongType('not_whole'))
        .int()
        .min(1)
        .max(MAX_QUANTITY)
        .describe(`How many, 1 to ${MAX_QUANTITY}.`),
      unit_price: dzdAmount
        .refine((c) => c > 0, { params: { code: 'not_positive' } })
        .optional()
        .describe('The price of one, in DZD; with `name`.'),
      product_id: z
        .string(wrongType('not_text'))
        .trim()
        .min(1)
        .max(100)
        .optional()
        .describe(
          'A product of the catalogue, instead of `name` and `unit_price`: priced from the catalogue when paid, its stock held while the card page is open. A checkout’s lines are all products or all named. An unknown or archived product is refused (422 `unprocessable_body`).',
        ),
    },
    { error: 'not_line_item' },
  )
  .describe('Either `name`, `quantity` and `unit_price`, or `product_id` and `quantity`.')

// Checked as the checkout form checks it (input.ts); "" is none, as a form field left empty.
const customerText = (max: number, what: string) =>
  z
    .string(wrongType('not_text'))
    .trim()
    .refine(...cleanText())
    .max(max)
    .nullable()
    .optional()
    .describe(what)

/** `POST /api/v1/checkouts`: `success_url` and exactly one of `amount` and `line_items`. */
export const createCheckoutBody = z.strictObject({
  amount: dzdAmount
    .nullable()
    .optional()
    .describe('What the customer pays, in DZD (at least 50); or give `line_items`.'),
  line_items: z
    .array(lineItem, wrongType('not_list'))
    .min(1)
    .max(MAX_LINE_ITEMS)
    .nullable()
    .optional()
    .describe(
      `The order's lines (1 to ${MAX_LINE_ITEMS}); the amount is their total, exact to the centime, at least 50 DZD.`,
    ),
  reference: optionalText(100)
    .optional()
    .describe(
      "Your order's id (at most 100 characters): kept as the payment's `ref`, and searchable.",
    ),
  metadata: newMetadata.optional(),
  customer: z
    .strictObject(
      {
        name: customerText(100, "The customer's name (2 to 100 characters)."),
        phone: customerText(
          30,
          'Their phone: an Algerian number (0550123456, +213550123456) or another in international form.',
        ),
        email: customerText(254, 'Their e-mail address.'),
      },
      { error: 'not_object' },
    )
    .nullable()
    .optional()
    .describe(
      'What the checkout form is filled with; the customer may change it. Each field optional.',
    ),
  success_url: httpUrl.describe(
    'Where the customer goes once the payment is confirmed, with `checkout_id=chk_…` added to its query (http or https).',
  ),
  cancel_url: httpUrl
    .nullable()
    .optional()
    .describe(
      "Where the card page's and the failure page's way back to the shop lead (http or https).",
    ),
  language: z
    .enum(LANGUAGES)
    .optional()
    .describe("The checkout page's language; default the store's (`DEFAULT_LANGUAGE`)."),
  expires_in: z
    .number(wrongType('not_whole'))
    .int()
    .min(EXPIRES_IN.min)
    .max(EXPIRES_IN.max)
    .optional()
    .describe(
      `Seconds the checkout stays open, ${EXPIRES_IN.min} to ${EXPIRES_IN.max}; default ${EXPIRES_IN.default}. A payment under way when it ends is let finish.`,
    ),
  custom_fields: customFieldsBody.optional(),
  // Offered with the catalogue: only "none" is taken (anything else is 422 `unprocessable_body`).
  allow_promo_codes: z
    .boolean(wrongType('not_boolean'))
    .optional()
    .describe('Whether the customer may enter a promo code (/api/v1/promo-codes).'),
})

export type CreateCheckoutBody = z.output<typeof createCheckoutBody>

/** `GET /api/v1/checkouts`. */
export const listCheckoutsQuery = z.strictObject({
  status: z
    .enum(CHECKOUT_STATUSES, { error: `must be one of ${CHECKOUT_STATUSES.join(', ')}` })
    .describe('Only checkouts in this status.')
    .optional(),
  reference: z
    .string({ error: 'must be given once' })
    .min(1, { error: 'must not be empty' })
    .max(100, { error: 'must be at most 100 characters' })
    .describe('Only checkouts with this `reference` (your order id), exactly.')
    .optional(),
  limit,
  cursor,
})

export type ListCheckoutsQuery = z.output<typeof listCheckoutsQuery>
