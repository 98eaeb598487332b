/**
 * The create-product and update-product bodies of the merchant API (the dashboard's form maps onto
 * the same fields) and the query string of its list. The price arrives as DZD and is kept in
 * centimes; problems are codes (src/domain/problems.ts), worded by each surface.
 */
import * as z from 'zod'
import { PRODUCT_SEARCH_MAX } from '../../data/products.js'
import { cleanText } from '../../domain/clean-text.js'
import type { FieldProblems, ProblemCode } from '../../domain/problems.js'
import { dzdAmount } from '../links/schemas.js'
import { cursor, limit } from '../query-fields.js'
import { fieldProblems, PARSE_OPTIONS } from '../zod-problems.js'

const wrongType = (code: ProblemCode) => ({ error: code })

/**
 * A SKU: ASCII letters, digits and `. _ - /`, starting with a letter or digit (so `lower()` in
 * SQLite folds every letter and the unique index holds whatever the case).
 */
export const SKU_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._\-/]{0,63}$/

const name = z
  .string(wrongType('not_text'))
  .trim()
  .refine(...cleanText())
  .min(1)
  .max(200)
const description = z
  .string(wrongType('not_text'))
  .trim()
  .refine(...cleanText(true))
  .max(2000)
  .transform((v) => (v === '' ? null : v))
  .nullable()
const price = dzdAmount.refine((c) => c > 0, { params: { code: 'not_positive' } })
const stock = z
  .number(wrongType('not_whole'))
  .int()
  .min(0)
  .max(1_000_000_000)
  .nullable()
  .describe('units left to sell; null: unlimited')
const sku = z
  .string(wrongType('not_text'))
  .trim()
  .max(64)
  .refine((v) => v === '' || SKU_PATTERN.test(v), { params: { code: 'invalid' } })
  .transform((v) => (v === '' ? null : v))
  .nullable()
  .describe('your own reference, unique whatever its case: letters, digits, `. _ - /`, up to 64')
const active = z.boolean().describe('false archives the product: kept, but no longer sold')

/** `POST /api/v1/products`: `name` and `price` are required. */
export const createProductBody = z.strictObject({
  name,
  description: description.optional(),
  price,
  stock: stock.optional(),
  sku: sku.optional(),
  active: active.optional(),
})

/** `PATCH /api/v1/products/:id`: the same fields, all optional; `null` clears an optional one. */
export const updateProductBody = z.strictObject({
  name: name.optional(),
  description: description.optional(),
  price: price.optional(),
  stock: stock.optional(),
  sku: sku.optional(),
  active: active.optional(),
})

export type CreateProductBody = z.output<typeof createProductBody>
export type UpdateProductBody = z.output<typeof updateProductBody>

/** Parses a create or update body into its values, or the problem of each bad field. */
export function parseProductBody<S extends typeof createProductBody | typeof updateProductBody>(
  schema: S,
  body: unknown,
): { ok: true; value: z.output<S> } | { ok: false; problems: FieldProblems } {
  const parsed = schema.safeParse(body, PARSE_OPTIONS)
  return parsed.success
    ? { ok: true, value: parsed.data as z.output<S> }
    : { ok: false, problems: fieldProblems(parsed.error) }
}

const bool = (v: unknown) => (v === 'true' ? true : v === 'false' ? false : v)

/** `GET /api/v1/products`. */
export const listProductsQuery = z.strictObject({
  limit,
  cursor,
  active: z
    .preprocess(bool, z.boolean({ error: 'must be true or false' }))
    .describe('Only products on sale (true) or archived (false).')
    .optional(),
  q: z
    .string({ error: 'must be given once' })
    .trim()
    .min(1, { error: 'must not be empty' })
    .max(PRODUCT_SEARCH_MAX, { error: `must be at most ${PRODUCT_SEARCH_MAX} characters` })
    .describe('Only products whose name or SKU contains this text (Latin letters in any case).')
    .optional(),
})
