/**
 * The create-link and update-link bodies of the merchant API (the dashboard form maps onto the
 * same fields), and the query string of its list. Amounts arrive as DZD JSON numbers and leave as integer centimes; rules that span
 * several fields live in link-rules.ts. Rules answer with problem codes (src/domain/problems.ts).
 */
import * as z from 'zod'
import { LANGUAGES, LINK_SOURCES } from '../../../db/schema.js'
import { SEARCH_MAX_CHARS, SEARCH_MIN_CHARS } from '../../data/search.js'
import { MAX_AMOUNT } from '../../domain/amount-bounds.js'
import { MAX_CART_LINES, MAX_CART_QUANTITY } from '../../domain/cart.js'
import { cleanText } from '../../domain/clean-text.js'
import type { FieldProblems, ProblemCode } from '../../domain/problems.js'
import { parseDzd } from '../../lib/money.js'
import { customFieldsBody } from '../custom-fields.js'
import { metadataChange, newMetadata } from '../metadata.js'
import { cursor, limit, search } from '../query-fields.js'
import { fieldProblems, PARSE_OPTIONS } from '../zod-problems.js'

// A value of the wrong type is worded by the kind of value the field takes; every other rule is
// read from the zod issue itself (see zod-problems.ts).
export const wrongType = (code: ProblemCode) => ({ error: code })

export function text(max: number) {
  return z
    .string(wrongType('not_text'))
    .trim()
    .refine(...cleanText())
    .min(1)
    .max(max)
}

/** DZD as a JSON number with at most two decimals, out as centimes. */
export const dzdAmount = z
  .number(wrongType('not_dzd'))
  .refine((v) => parseDzd(v) !== null, { params: { code: 'bad_dzd' } })
  .transform((v) => parseDzd(v)!)
  .refine((c) => c <= MAX_AMOUNT, { params: { code: 'amount_too_high', max: MAX_AMOUNT } })
  .describe('DZD as a number with at most two decimals, e.g. 1500 or 1299.5')

// Optional text: an empty string means "none", as a cleared form field does. A multi-line field
// (a description, a message) may hold line breaks and tabs; the others may not.
export function optionalText(max: number, multiline = false) {
  return z
    .string(wrongType('not_text'))
    .trim()
    .refine(...cleanText(multiline))
    .max(max)
    .transform((v) => (v === '' ? null : v))
    .nullable()
}

const wholeNumber = (max: number) => z.number(wrongType('not_whole')).int().min(1).max(max)

const invoiceItem = z.strictObject({
  description: text(200),
  quantity: wholeNumber(100_000),
  unit_price: dzdAmount.refine((c) => c > 0, { params: { code: 'not_positive' } }),
})

/**
 * A cart's product line: a product of the catalogue, how many, and the range the customer may
 * choose in (`qty_<product_id>` on the page). The rules across lines (a product named twice, the
 * quantity inside its range) are src/domain/cart.ts's.
 */
const cartLine = z
  .strictObject({
    product_id: z.string(wrongType('not_text')).trim().min(1).max(100),
    quantity: z.number(wrongType('not_whole')).int().min(0).max(MAX_CART_QUANTITY),
    adjustable_quantity: z
      .strictObject({
        min: z.number(wrongType('not_whole')).int().min(0).max(MAX_CART_QUANTITY),
        max: z.number(wrongType('not_whole')).int().min(1).max(MAX_CART_QUANTITY),
      })
      .nullable()
      .optional()
      .describe('The customer chooses the quantity from min to max; null or absent: fixed.'),
  })
  .describe('A product and its quantity; with `adjustable_quantity` the customer may change it.')

export const cartLines = z
  .array(cartLine, wrongType('not_list'))
  .min(1)
  .max(MAX_CART_LINES)
  .describe(
    `A cart: 1 to ${MAX_CART_LINES} products; the amount is the sum of their price × quantity, priced when paid.`,
  )

const isoDateTime = z
  .string(wrongType('not_datetime'))
  .pipe(z.iso.datetime({ offset: true }))
  .transform((v) => Date.parse(v))
  .describe('ISO 8601 date and time with a time zone, e.g. 2026-06-30T23:59:00+01:00')

export const httpUrl = z
  .string(wrongType('not_url'))
  .trim()
  .refine(...cleanText())
  .max(2048)
  .pipe(z.url({ protocol: /^https?$/ }))
  .describe('an http:// or https:// URL')

/** Fields both the create and the update body accept; null clears an optional field. */
const fields = {
  description: optionalText(2000, true),
  amount: dzdAmount.nullable(),
  amount_min: dzdAmount.nullable(),
  amount_max: dzdAmount.nullable(),
  invoice_id: text(100).nullable(),
  invoice_items: z.array(invoiceItem).min(1).max(50).nullable(),
  line_items: cartLines.nullable(),
  max_payments: wholeNumber(1_000_000).nullable(),
  expires_at: isoDateTime.nullable(),
  language: z.enum(LANGUAGES),
  memo: optionalText(200),
  success_message: optionalText(2000, true),
  success_url: httpUrl.nullable(),
  active: z.boolean(),
  inactive_message: optionalText(500, true),
  // Deposits: each payment at least min_amount (or the rest), until the amount is paid in full.
  allow_partial: z
    .strictObject({ min_amount: dzdAmount })
    .nullable()
    .describe('fixed and invoice links: pay in parts, each at least min_amount or the balance'),
  custom_fields: customFieldsBody,
  allow_promo_codes: z
    .boolean(wrongType('not_boolean'))
    .describe('whether the customer may enter a promo code (/api/v1/promo-codes)'),
  customer_fee: z
    .boolean(wrongType('not_boolean'))
    .describe('whether the customer pays the setting customer_fee_percent on top of the order'),
}

const optional = <T extends Record<string, z.ZodType>>(shape: T) =>
  Object.fromEntries(Object.entries(shape).map(([k, v]) => [k, v.optional()])) as {
    [K in keyof T]: z.ZodOptional<T[K]>
  }

/** `POST /api/v1/links`: `title` is required, every other field optional. */
export const createLinkBody = z.strictObject({
  title: text(200),
  ...optional(fields),
  metadata: newMetadata.optional(),
})

/**
 * `PATCH /api/v1/links/:id`: the same fields, all optional; `metadata` is merged into the stored
 * keys (see metadata.ts).
 */
export const updateLinkBody = z.strictObject({
  title: text(200).optional(),
  ...optional(fields),
  metadata: metadataChange.optional(),
})

export type CreateLinkBody = z.output<typeof createLinkBody>
export type UpdateLinkBody = z.output<typeof updateLinkBody>

/** Parses a create or update body into its values, or the problem of each bad field. */
export function parseBody<S extends typeof createLinkBody | typeof updateLinkBody>(
  schema: S,
  body: unknown,
): { ok: true; value: z.output<S> } | { ok: false; problems: FieldProblems } {
  const parsed = schema.safeParse(body, PARSE_OPTIONS)
  return parsed.success
    ? { ok: true, value: parsed.data as z.output<S> }
    : { ok: false, problems: fieldProblems(parsed.error) }
}

// Query values are text; a boolean is read strictly (no `yes`).
const bool = (v: unknown) => (v === 'true' ? true : v === 'false' ? false : v)

/** `GET /api/v1/links`. */
export const listLinksQuery = z.strictObject({
  limit,
  cursor,
  active: z
    .preprocess(bool, z.boolean({ error: 'must be true or false' }))
    .describe('Only links the merchant switched on (true) or off (false).')
    .optional(),
  source: z
    .enum(LINK_SOURCES, { error: `must be one of ${LINK_SOURCES.join(', ')}` })
    .describe(
      'Only links made there: `dashboard` (and links older than sources), `api`, `till` (one per sale at the point of sale) or `checkout` (the link each checkout is paid through). Without it, every link but the checkouts’.',
    )
    .optional(),
  q: search(
    `Only links whose title contains this text (${SEARCH_MIN_CHARS} to ${SEARCH_MAX_CHARS} characters; Latin letters in any case).`,
  ),
})

export type ListLinksQuery = z.output<typeof listLinksQuery>
