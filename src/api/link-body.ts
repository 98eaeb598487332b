/**
 * The create-link and update-link bodies of the merchant API (the dashboard form maps onto the
 * same fields). Amounts arrive as DZD JSON numbers and leave as integer centimes; rules that span
 * several fields live in link-rules.ts.
 */
import * as z from 'zod'
import { LANGUAGES } from '../../db/schema.js'
import { cleanText } from '../domain/clean-text.js'
import { parseDzd } from '../lib/money.js'

/** The card network's minimum payment: 50 DZD, in centimes. */
export const MIN_AMOUNT = 5000
/** A sanity ceiling on any amount (100 000 000 DZD) that keeps item totals exact integers. */
export const MAX_AMOUNT = 10_000_000_000

type Message = (issue: { input?: unknown }) => string
const expect =
  (rule: string): Message =>
  (issue) =>
    issue.input === undefined ? 'is required' : rule

function text(max: number) {
  return z
    .string({ error: expect('must be text') })
    .trim()
    .refine(...cleanText())
    .min(1, { error: 'must not be empty' })
    .max(max, { error: `must be at most ${max} characters` })
}

/** DZD as a JSON number with at most two decimals, out as centimes. */
export const dzdAmount = z
  .number({ error: expect('must be a number of DZD, e.g. 1500 or 1299.5') })
  .refine((v) => parseDzd(v) !== null, {
    error: 'must be an amount of DZD that is not negative and has at most two decimals',
  })
  .transform((v) => parseDzd(v)!)
  .refine((c) => c <= MAX_AMOUNT, { error: 'must be at most 100000000 DZD' })
  .describe('DZD as a number with at most two decimals, e.g. 1500 or 1299.5')

// Optional text: an empty string means "none", as a cleared form field does. A multi-line field
// (a description, a message) may hold line breaks and tabs; the others may not.
function optionalText(max: number, multiline = false) {
  return z
    .string({ error: expect('must be text') })
    .trim()
    .refine(...cleanText(multiline))
    .max(max, { error: `must be at most ${max} characters` })
    .transform((v) => (v === '' ? null : v))
    .nullable()
}

const invoiceItem = z.strictObject({
  description: text(200),
  quantity: z
    .number({ error: expect('must be a whole number') })
    .int({ error: 'must be a whole number' })
    .min(1, { error: 'must be at least 1' })
    .max(100_000, { error: 'must be at most 100000' }),
  unit_price: dzdAmount.refine((c) => c > 0, { error: 'must be more than 0 DZD' }),
})

const isoDateTime = z
  .string({ error: expect('must be an ISO 8601 date and time') })
  .pipe(
    z.iso.datetime({
      offset: true,
      error: 'must be an ISO 8601 date and time with a time zone, e.g. 2026-06-30T23:59:00+01:00',
    }),
  )
  .transform((v) => Date.parse(v))
  .describe('ISO 8601 date and time with a time zone, e.g. 2026-06-30T23:59:00+01:00')

const httpUrl = z
  .string({ error: expect('must be a URL') })
  .trim()
  .refine(...cleanText())
  .max(2048, { error: 'must be at most 2048 characters' })
  .pipe(z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' }))
  .describe('an http:// or https:// URL')

/** Fields both the create and the update body accept; null clears an optional field. */
const fields = {
  description: optionalText(2000, true),
  amount: dzdAmount.nullable(),
  amount_min: dzdAmount.nullable(),
  amount_max: dzdAmount.nullable(),
  invoice_id: text(100).nullable(),
  invoice_items: z
    .array(invoiceItem, { error: expect('must be a list of items') })
    .min(1, { error: 'must list at least one item' })
    .max(50, { error: 'must list at most 50 items' })
    .nullable(),
  max_payments: z
    .number({ error: expect('must be a whole number') })
    .int({ error: 'must be a whole number' })
    .min(1, { error: 'must be at least 1' })
    .max(1_000_000, { error: 'must be at most 1000000' })
    .nullable(),
  expires_at: isoDateTime.nullable(),
  language: z.enum(LANGUAGES, { error: expect('must be one of ar, fr, en') }),
  memo: optionalText(200),
  success_message: optionalText(2000, true),
  success_url: httpUrl.nullable(),
  active: z.boolean({ error: expect('must be true or false') }),
  inactive_message: optionalText(500, true),
}

const optional = <T extends Record<string, z.ZodType>>(shape: T) =>
  Object.fromEntries(Object.entries(shape).map(([k, v]) => [k, v.optional()])) as {
    [K in keyof T]: z.ZodOptional<T[K]>
  }

/** `POST /api/v1/links`: `title` is required, every other field optional. */
export const createLinkBody = z.strictObject({ title: text(200), ...optional(fields) })

/** `PATCH /api/v1/links/:id`: the same fields, all optional. */
export const updateLinkBody = z.strictObject({ title: text(200).optional(), ...optional(fields) })

export type CreateLinkBody = z.output<typeof createLinkBody>
export type UpdateLinkBody = z.output<typeof updateLinkBody>

/** Field errors keyed by field path (`invoice_items[0].quantity`), each naming field and rule. */
export type FieldErrors = Record<string, string>

function pathText(path: readonly PropertyKey[]): string {
  return path
    .map((p, i) => (typeof p === 'number' ? `[${p}]` : i === 0 ? String(p) : `.${String(p)}`))
    .join('')
}

/** Turns zod issues into field errors: `{ amount_min: 'amount_min must be at least 50 DZD' }`. */
export function fieldErrors(error: z.ZodError): FieldErrors {
  // No prototype: a stray `constructor` or `__proto__` key is reported like any other.
  const out: FieldErrors = Object.create(null)
  for (const issue of error.issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) {
        const path = pathText([...issue.path, key])
        out[path] ??= `${path} is not a field of a link`
      }
      continue
    }
    const path = pathText(issue.path) || 'body'
    out[path] ??= path === 'body' ? 'body must be a JSON object' : `${path} ${issue.message}`
  }
  return out
}
