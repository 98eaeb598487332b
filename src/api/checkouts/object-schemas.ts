/**
 * The zod schemas of the merchant API's checkout object and of its list page. The OpenAPI document
 * is made from them (src/api/openapi-schemas.ts) and the tests check the answers against them; the
 * handlers build the answers with objects.ts, which does not parse them. Nothing the Worker runs
 * imports a value from here, so its upload does not carry them.
 */
import * as z from 'zod'
import { CHECKOUT_STATUSES, LANGUAGES } from '../../../db/schema.js'
import { dzd, metadata, page, time } from '../object-fields.js'

export const checkoutObject = z.object({
  id: z.string().describe('the checkout’s id (`chk_…`)'),
  url: z.string().describe('the page where the customer pays: send the customer there'),
  status: z
    .enum(CHECKOUT_STATUSES)
    .describe(
      '`open` (it takes a payment); `completed` (paid: `payment_id`); `expired` (its time ran out, or you expired it); `canceled` (closed from the dashboard)',
    ),
  amount: dzd.describe('what the customer pays: the amount given, or the line items’ total'),
  currency: z.literal('DZD'),
  line_items: z
    .array(
      z.object({
        product_id: z
          .string()
          .nullable()
          .describe(
            'the product of the catalogue; its name and price as when the checkout was made',
          ),
        name: z.string(),
        quantity: z.number().int(),
        unit_price: dzd,
        amount: dzd.describe('quantity × unit_price'),
      }),
    )
    .nullable()
    .describe(
      'the lines as given (a product’s with its name and price then); null for a checkout made with an amount',
    ),
  reference: z.string().nullable().describe('your order id; its payments carry it as `ref`'),
  metadata: metadata.describe(
    'your own keys and texts (`{}` when none); each payment of the checkout keeps a copy',
  ),
  customer: z
    .object({
      name: z.string().nullable(),
      phone: z.string().nullable(),
      email: z.string().nullable(),
    })
    .describe('what the checkout form is filled with (null: left for the customer)'),
  success_url: z.string(),
  cancel_url: z.string().nullable(),
  language: z.enum(LANGUAGES),
  expires_at: time.describe(
    'when it stops taking a payment (a payment under way then is let finish)',
  ),
  payment_id: z.string().nullable().describe('the paid payment; null until paid'),
  created_at: time,
  completed_at: time.nullable().describe('when its payment was confirmed paid'),
})
export type CheckoutObject = z.infer<typeof checkoutObject>

/** A page of checkouts, newest first. */
export const checkoutList = page(checkoutObject)
