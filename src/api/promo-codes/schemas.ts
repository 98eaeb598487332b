/**
 * The create-promo-code and update-promo-code bodies of the merchant API (the dashboard's form maps
 * onto the same fields) and the query string of its list. Amounts arrive as DZD and are kept in
 * centimes; problems are codes (src/domain/problems.ts), worded by each surface. That a code has
 * exactly one of `percent_off` and `amount_off` is checked with the stored row on an update
 * (src/promo-codes/service.ts).
 */
import * as z from 'zod'
import type { FieldProblems, ProblemCode } from '../../domain/problems.js'
import { PROMO_CODE_PATTERN } from '../../domain/promo-code.js'
import { dzdAmount } from '../links/schemas.js'
import { cursor, limit } from '../query-fields.js'
import { fieldProblems, PARSE_OPTIONS } from '../zod-problems.js'

const wrongType = (code: ProblemCode) => ({ error: code })

const code = z
  .string(wrongType('not_text'))
  .trim()
  .refine((v) => PROMO_CODE_PATTERN.test(v), { params: { code: 'bad_promo_code' } })
  .describe('what the customer types, unique whatever its case: 3 to 40 letters, digits, _ or -')
const percentOff = z
  .number(wrongType('not_whole'))
  .int()
  .min(1)
  .max(100)
  .nullable()
  .describe('a whole percent of the order, 1 to 100; or give amount_off')
const amountOff = dzdAmount
  .refine((c) => c > 0, { params: { code: 'not_positive' } })
  .nullable()
  .describe('DZD off the order; or give percent_off')
const minAmount = dzdAmount
  .nullable()
  .describe('the least order (before the discount) the code applies to, DZD; null: any')
const maxRedemptions = z
  .number(wrongType('not_whole'))
  .int()
  .min(1)
  .max(1_000_000_000)
  .nullable()
  .describe('how many paid payments may use it; null: no limit')
const expiresAt = z
  .string(wrongType('not_datetime'))
  .pipe(z.iso.datetime({ offset: true }))
  .transform((v) => Date.parse(v))
  .nullable()
  .describe('ISO 8601 date and time with a time zone; null: never')
const active = z.boolean().describe('false: the code is refused on the checkout page')

/** `POST /api/v1/promo-codes`: `code` and one of `percent_off` and `amount_off`. */
export const createPromoCodeBody = z.strictObject({
  code,
  percent_off: percentOff.optional(),
  amount_off: amountOff.optional(),
  min_amount: minAmount.optional(),
  max_redemptions: maxRedemptions.optional(),
  expires_at: expiresAt.optional(),
  active: active.optional(),
})

/** `PATCH /api/v1/promo-codes/:id`: the same fields, all optional; `null` clears an optional one. */
export const updatePromoCodeBody = z.strictObject({
  code: code.optional(),
  percent_off: percentOff.optional(),
  amount_off: amountOff.optional(),
  min_amount: minAmount.optional(),
  max_redemptions: maxRedemptions.optional(),
  expires_at: expiresAt.optional(),
  active: active.optional(),
})

export type CreatePromoCodeBody = z.output<typeof createPromoCodeBody>
export type UpdatePromoCodeBody = z.output<typeof updatePromoCodeBody>

/** Parses a create or update body into its values, or the problem of each bad field. */
export function parsePromoCodeBody<
  S extends typeof createPromoCodeBody | typeof updatePromoCodeBody,
>(
  schema: S,
  body: unknown,
): { ok: true; value: z.output<S> } | { ok: false; problems: FieldProblems } {
  const parsed = schema.safeParse(body, PARSE_OPTIONS)
  return parsed.success
    ? { ok: true, value: parsed.data as z.output<S> }
    : { ok: false, problems: fieldProblems(parsed.error) }
}

const bool = (v: unknown) => (v === 'true' ? true : v === 'false' ? false : v)

/** `GET /api/v1/promo-codes`. */
export const listPromoCodesQuery = z.strictObject({
  limit,
  cursor,
  active: z
    .preprocess(bool, z.boolean({ error: 'must be true or false' }))
    .describe('Only codes switched on (true) or off (false).')
    .optional(),
})
