/** Problem codes: how zod issues become codes, and every code worded by every surface. */
import { describe, expect, it } from 'vitest'
import * as z from 'zod'
import { createLinkBody, parseBody } from '../../src/api/links/schemas.js'
import { apiFieldMessages, apiProblemText } from '../../src/api/problem-messages.js'
import { fieldProblems, PARSE_OPTIONS } from '../../src/api/zod-problems.js'
import { LANGUAGES } from '../../src/config.js'
import { dashTranslator, PROBLEM_MESSAGES } from '../../src/dashboard/messages.js'
import { PROBLEM_CODES, type ProblemCode } from '../../src/domain/problems.js'

/** Parameters of the right kind for each code that takes some. */
const PARAMS: Partial<Record<ProblemCode, Record<string, string | number>>> = {
  too_long: { max: 200 },
  too_small: { min: 1 },
  too_big: { max: 100000 },
  amount_too_low: { min: 5000 },
  amount_too_high: { max: 10_000_000_000 },
  not_one_of: { values: 'ar, fr, en' },
  too_few_items: { min: 1 },
  too_many_items: { max: 50 },
  too_many_keys: { max: 20 },
  key_too_long: { max: 40 },
  items_total_too_low: { min: 5000 },
  items_total_too_high: { max: 10_000_000_000 },
  not_available: { value: '[]' },
  quantity_out_of_range: { min: 1, max: 5 },
}

const problemsOf = (schema: z.ZodType, input: unknown) => {
  const parsed = schema.safeParse(input, PARSE_OPTIONS)
  if (parsed.success) throw new Error(`accepted: ${JSON.stringify(input)}`)
  return fieldProblems(parsed.error)
}

describe('a zod issue', () => {
  const cases: [string, z.ZodType, unknown, Record<string, unknown>][] = [
    ['an absent field', z.object({ a: z.string() }), {}, { a: { code: 'required' } }],
    [
      'a string too long',
      z.object({ a: z.string().max(3) }),
      { a: 'abcd' },
      { a: { code: 'too_long', params: { max: 3 } } },
    ],
    ['an empty string', z.object({ a: z.string().min(1) }), { a: '' }, { a: { code: 'empty' } }],
    [
      'a number too small',
      z.object({ a: z.number().min(2) }),
      { a: 1 },
      { a: { code: 'too_small', params: { min: 2 } } },
    ],
    [
      'a number too big',
      z.object({ a: z.number().max(9) }),
      { a: 10 },
      { a: { code: 'too_big', params: { max: 9 } } },
    ],
    [
      'a fraction for a whole number',
      z.object({ a: z.number().int() }),
      { a: 1.5 },
      { a: { code: 'not_whole' } },
    ],
    [
      'a list too short',
      z.object({ a: z.array(z.number()).min(1) }),
      { a: [] },
      { a: { code: 'too_few_items', params: { min: 1 } } },
    ],
    [
      'a list too long',
      z.object({ a: z.array(z.number()).max(1) }),
      { a: [1, 2] },
      { a: { code: 'too_many_items', params: { max: 1 } } },
    ],
    [
      'a value outside a choice',
      z.object({ a: z.enum(['x', 'y']) }),
      { a: 'z' },
      { a: { code: 'not_one_of', params: { values: 'x, y' } } },
    ],
    [
      'a URL of another scheme',
      z.object({ a: z.url({ protocol: /^https?$/ }) }),
      { a: 'ftp://a.dz' },
      { a: { code: 'bad_url' } },
    ],
    [
      'a date without zone',
      z.object({ a: z.iso.datetime({ offset: true }) }),
      { a: '2026-01-01T10:00:00' },
      { a: { code: 'bad_datetime' } },
    ],
    [
      'a boolean as text',
      z.object({ a: z.boolean() }),
      { a: 'yes' },
      { a: { code: 'not_boolean' } },
    ],
    [
      'a list as text',
      z.object({ a: z.array(z.number()) }),
      { a: 'x' },
      { a: { code: 'not_list' } },
    ],
    ['a number as text', z.object({ a: z.string() }), { a: 5 }, { a: { code: 'not_text' } }],
    [
      'an item that is not an object',
      z.object({ a: z.array(z.object({})) }),
      { a: [null] },
      { 'a[0]': { code: 'not_item' } },
    ],
    ['a body that is not an object', z.object({}), [1], { body: { code: 'not_object' } }],
    ['an unknown key', z.strictObject({}), { b: 1 }, { b: { code: 'unknown_field' } }],
    [
      'a refinement carrying a code',
      z.object({
        a: z.number().refine(() => false, { params: { code: 'amount_too_high', max: 7 } }),
      }),
      { a: 1 },
      { a: { code: 'amount_too_high', params: { max: 7 } } },
    ],
    [
      'a refinement without a code',
      z.object({ a: z.number().refine(() => false) }),
      { a: 1 },
      { a: { code: 'invalid' } },
    ],
    [
      'a wrong type whose schema names its code',
      z.object({ a: z.number({ error: 'not_dzd' }) }),
      { a: '1' },
      { a: { code: 'not_dzd' } },
    ],
  ]
  it.each(cases)('maps %s to its code', (_, schema, input, expected) => {
    expect(problemsOf(schema, input)).toEqual(expected)
  })

  it('in the link body, names the kind of value a field takes and the rule it breaks', () => {
    const r = parseBody(createLinkBody, {
      title: 'a\u0000',
      amount: '1500',
      amount_min: 10.001,
      max_payments: '2',
      expires_at: 5,
      success_url: 7,
      invoice_items: [{ description: 'a', quantity: 1, unit_price: 0 }],
    })
    expect(r.ok || r.problems).toEqual({
      title: { code: 'not_clean_text' },
      amount: { code: 'not_dzd' },
      amount_min: { code: 'bad_dzd' },
      max_payments: { code: 'not_whole' },
      expires_at: { code: 'not_datetime' },
      success_url: { code: 'not_url' },
      'invoice_items[0].unit_price': { code: 'not_positive' },
    })
  })

  it('in the link body, carries the ceiling of an amount in centimes', () => {
    const r = parseBody(createLinkBody, { title: 'T', amount: 100_000_000.01 })
    expect(r.ok || r.problems).toEqual({
      amount: { code: 'amount_too_high', params: { max: 10_000_000_000 } },
    })
  })
})

describe('every problem code', () => {
  it.each(LANGUAGES)('renders beside a dashboard field in %s, every placeholder filled', (lang) => {
    const t = dashTranslator(lang)
    for (const code of PROBLEM_CODES) {
      const text = t(PROBLEM_MESSAGES[code], PARAMS[code])
      expect(text, code).not.toMatch(/[{}]|^$/)
    }
  })

  it('renders in the API naming the field first, every placeholder filled', () => {
    for (const code of PROBLEM_CODES) {
      const text = apiProblemText('amount', { code, params: PARAMS[code] })
      expect(text, code).toMatch(/^amount \S/)
      expect(text, code).not.toMatch(/[{}]/)
    }
  })

  it('writes amounts in the API as DZD, from the centimes the rules carry', () => {
    expect(
      apiFieldMessages({
        amount_min: { code: 'amount_too_low', params: { min: 5000 } },
        invoice_items: { code: 'items_total_too_high', params: { max: 10_000_000_000 } },
        amount: { code: 'amount_too_low', params: { min: 129950 } },
      }),
    ).toEqual({
      amount_min: 'amount_min must be at least 50 DZD',
      invoice_items: 'invoice_items total must be at most 100000000 DZD',
      amount: 'amount must be at least 1299.5 DZD',
    })
  })
})
