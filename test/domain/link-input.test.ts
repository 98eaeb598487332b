import { describe, expect, it } from 'vitest'
import * as z from 'zod'
import type { Link } from '../../db/schema.js'
import { parseCreateLink, parseLinkUpdate } from '../../src/api/links/input.js'
import { createLinkBody } from '../../src/api/links/schemas.js'
import { inApiWords } from '../support/api-words.js'

const NOW = Date.UTC(2026, 0, 15, 10, 0, 0)
const create = (body: unknown) =>
  inApiWords(parseCreateLink(body, { now: NOW, defaultLanguage: 'fr' }))

function errorsOf(body: unknown): Record<string, string> {
  const r = create(body)
  if (r.ok) throw new Error(`accepted: ${JSON.stringify(body)}`)
  return r.errors
}

describe('parseCreateLink accepts', () => {
  it('a fixed amount with every optional field, in centimes and epoch milliseconds', () => {
    const r = create({
      title: '  Cours de piano ',
      description: 'Une heure',
      amount: 1299.5,
      max_payments: 1,
      expires_at: '2026-06-30T23:59:00+01:00',
      language: 'ar',
      memo: 'Piano',
      success_message: 'Merci !',
      success_url: 'https://example.dz/merci',
      active: false,
      inactive_message: 'Complet',
      // A key set to "" is no key on a new link.
      metadata: { lesson: 'piano', room: '' },
    })
    expect(r).toEqual({
      ok: true,
      value: {
        title: 'Cours de piano',
        description: 'Une heure',
        amount: 129950,
        amountMin: null,
        amountMax: null,
        invoiceId: null,
        invoiceItems: null,
        maxPayments: 1,
        expiresAt: Date.UTC(2026, 5, 30, 22, 59),
        language: 'ar',
        memo: 'Piano',
        successMessage: 'Merci !',
        successUrl: 'https://example.dz/merci',
        active: false,
        inactiveMessage: 'Complet',
        partialMinAmount: null,
        allowPromoCodes: false,
        customerFee: false,
        metadata: { lesson: 'piano' },
      },
    })
  })

  it('a bare title and amount with defaults: default language, active, no limits', () => {
    const r = create({ title: 'Don', amount: 50 })
    expect(r.ok && r.value).toMatchObject({
      amount: 5000,
      language: 'fr',
      active: true,
      maxPayments: null,
      expiresAt: null,
      description: null,
    })
  })

  it('an open amount, filling a missing minimum with 50 DZD', () => {
    expect(create({ title: 'Don', amount_min: 100, amount_max: 20000.25 })).toMatchObject({
      value: { amount: null, amountMin: 10000, amountMax: 2000025 },
    })
    expect(create({ title: 'Don', amount_max: 500 })).toMatchObject({
      value: { amountMin: 5000, amountMax: 50000 },
    })
    expect(create({ title: 'Don', amount_min: 75 })).toMatchObject({
      value: { amountMin: 7500, amountMax: null },
    })
  })

  it('an existing invoice id with its amount', () => {
    expect(create({ title: 'Facture', invoice_id: 'inv_42', amount: 3000 })).toMatchObject({
      value: { invoiceId: 'inv_42', amount: 300000 },
    })
  })

  it('invoice items, whose exact total becomes the amount', () => {
    const r = create({
      title: 'Commande',
      invoice_items: [
        { description: 'Livre', quantity: 3, unit_price: 0.1 },
        { description: 'Stylo', quantity: 1, unit_price: 1299.9 },
      ],
    })
    expect(r.ok && r.value).toMatchObject({
      amount: 130020,
      invoiceItems: [
        { description: 'Livre', quantity: 3, unitPrice: 10 },
        { description: 'Stylo', quantity: 1, unitPrice: 129990 },
      ],
    })
  })

  it('an invoice link as single use unless the body says otherwise; other links without a limit', () => {
    const items = [{ description: 'Livre', quantity: 1, unit_price: 100 }]
    const maxOf = (body: Record<string, unknown>) => {
      const r = create({ title: 'Facture', ...body })
      return r.ok ? r.value.maxPayments : r
    }
    expect(maxOf({ invoice_items: items })).toBe(1)
    expect(maxOf({ invoice_id: 'inv_42', amount: 3000 })).toBe(1)
    // The merchant's own choice stands: a number, or null for no limit.
    expect(maxOf({ invoice_items: items, max_payments: 5 })).toBe(5)
    expect(maxOf({ invoice_id: 'inv_42', amount: 3000, max_payments: null })).toBeNull()
    expect(maxOf({ amount: 3000 })).toBeNull()
    expect(maxOf({ amount_min: 100 })).toBeNull()
  })

  it('empty optional text as none, and null for any optional field', () => {
    const r = create({ title: 'X', amount: 100, description: ' ', memo: null, expires_at: null })
    expect(r.ok && r.value).toMatchObject({ description: null, memo: null, expiresAt: null })
  })
})

describe('parseCreateLink rejects, naming the field and the rule', () => {
  const cases: [string, unknown, Record<string, RegExp>][] = [
    ['a missing title', { amount: 100 }, { title: /^title is required$/ }],
    ['an empty title', { title: '  ', amount: 100 }, { title: /^title must not be empty/ }],
    ['a title that is not text', { title: 5, amount: 100 }, { title: /^title must be text/ }],
    ['no amount of any kind', { title: 'X' }, { amount: /^amount is required: give amount/ }],
    [
      'three decimals',
      { title: 'X', amount: 10.123 },
      { amount: /^amount .*at most two decimals/ },
    ],
    ['a negative amount', { title: 'X', amount: -5 }, { amount: /^amount .*not negative/ }],
    ['an amount as text', { title: 'X', amount: '1500' }, { amount: /^amount must be a number/ }],
    [
      'an amount under 50 DZD',
      { title: 'X', amount: 49.99 },
      { amount: /^amount must be at least 50 DZD$/ },
    ],
    [
      'a minimum under 50 DZD',
      { title: 'X', amount_min: 10 },
      { amount_min: /^amount_min must be at least 50 DZD$/ },
    ],
    [
      'a maximum under the minimum',
      { title: 'X', amount_min: 100, amount_max: 99 },
      { amount_max: /^amount_max must not be less than amount_min$/ },
    ],
    [
      'fixed and open together',
      { title: 'X', amount: 100, amount_max: 200 },
      { amount_max: /^amount_max cannot be combined with amount/ },
    ],
    [
      'an invoice id without amount',
      { title: 'X', invoice_id: 'inv_1' },
      { amount: /^amount is required with invoice_id/ },
    ],
    [
      'invoice id and items together',
      {
        title: 'X',
        invoice_id: 'i',
        invoice_items: [{ description: 'a', quantity: 1, unit_price: 100 }],
      },
      { invoice_id: /^invoice_id cannot be combined with invoice_items/ },
    ],
    [
      'an amount with items',
      {
        title: 'X',
        amount: 100,
        invoice_items: [{ description: 'a', quantity: 1, unit_price: 100 }],
      },
      { amount: /^amount must be left out with invoice_items/ },
    ],
    [
      'items totalling under 50 DZD',
      { title: 'X', invoice_items: [{ description: 'a', quantity: 2, unit_price: 24.99 }] },
      { invoice_items: /^invoice_items total must be at least 50 DZD$/ },
    ],
    [
      'a fractional quantity',
      { title: 'X', invoice_items: [{ description: 'a', quantity: 1.5, unit_price: 100 }] },
      { 'invoice_items[0].quantity': /^invoice_items\[0\]\.quantity must be a whole number$/ },
    ],
    [
      'a zero quantity',
      { title: 'X', invoice_items: [{ description: 'a', quantity: 0, unit_price: 100 }] },
      { 'invoice_items[0].quantity': /must be at least 1$/ },
    ],
    [
      'an item without description',
      { title: 'X', invoice_items: [{ quantity: 1, unit_price: 100 }] },
      { 'invoice_items[0].description': /^invoice_items\[0\]\.description is required$/ },
    ],
    [
      'an empty item list',
      { title: 'X', invoice_items: [] },
      { invoice_items: /^invoice_items must list at least one item$/ },
    ],
    [
      'a zero max_payments',
      { title: 'X', amount: 100, max_payments: 0 },
      { max_payments: /^max_payments must be at least 1$/ },
    ],
    [
      'a fractional max_payments',
      { title: 'X', amount: 100, max_payments: 1.5 },
      { max_payments: /^max_payments must be a whole number$/ },
    ],
    [
      'an expiry without time zone',
      { title: 'X', amount: 100, expires_at: '2026-06-30T10:00:00' },
      { expires_at: /^expires_at must be an ISO 8601 date and time with a time zone/ },
    ],
    [
      'an expiry that is not a date',
      { title: 'X', amount: 100, expires_at: 'tomorrow' },
      { expires_at: /^expires_at must be an ISO 8601/ },
    ],
    [
      'an expiry in the past',
      { title: 'X', amount: 100, expires_at: '2026-01-15T10:00:00Z' },
      { expires_at: /^expires_at must be in the future$/ },
    ],
    [
      'an unknown language',
      { title: 'X', amount: 100, language: 'de' },
      { language: /^language must be one of ar, fr, en$/ },
    ],
    [
      'a javascript: success URL',
      { title: 'X', amount: 100, success_url: 'javascript:alert(1)' },
      { success_url: /^success_url must be an http:\/\/ or https:\/\/ URL$/ },
    ],
    [
      'a success URL that is not a URL',
      { title: 'X', amount: 100, success_url: 'merci' },
      { success_url: /^success_url must be an http/ },
    ],
    [
      'active as text',
      { title: 'X', amount: 100, active: 'yes' },
      { active: /^active must be true or false$/ },
    ],
    [
      'a memo too long',
      { title: 'X', amount: 100, memo: 'm'.repeat(201) },
      { memo: /^memo must be at most 200 characters$/ },
    ],
    [
      'an unknown field',
      { title: 'X', amount: 100, amout: 5 },
      { amout: /^amout is not a field of a link$/ },
    ],
    ['a body that is not an object', [1, 2], { body: /^body must be a JSON object$/ }],
  ]
  for (const [what, body, expected] of cases) {
    it(what, () => {
      const errors = errorsOf(body)
      for (const [field, pattern] of Object.entries(expected))
        expect(errors[field]).toMatch(pattern)
    })
  }

  it('reports every field that breaks its own rule at once', () => {
    const errors = errorsOf({ amount: 1, language: 'xx', max_payments: -1 })
    expect(Object.keys(errors).sort()).toEqual(['language', 'max_payments', 'title'])
  })
})

describe('parseLinkUpdate', () => {
  const stored: Link = {
    id: 'lnk_1',
    slug: 'abcdefghij12',
    title: 'Don',
    description: null,
    amount: null,
    amountMin: 10000,
    amountMax: 50000,
    invoiceId: null,
    invoiceItems: null,
    maxPayments: null,
    expiresAt: null,
    language: 'fr',
    memo: null,
    successMessage: null,
    successUrl: null,
    active: true,
    inactiveMessage: null,
    createdAt: NOW - 1000,
    updatedAt: NOW - 1000,
    source: null,
    createdBy: null,
    lineItems: null,
    customFields: null,
    allowPromoCodes: false,
    customerFee: false,
    partialMinAmount: null,
    inFlightTotal: 0,
    metadata: {},
  }
  const update = (body: unknown, link: Link = stored) =>
    inApiWords(parseLinkUpdate(link, body, { now: NOW }))

  it('returns only the fields named when pricing is untouched', () => {
    expect(update({ active: false, inactive_message: 'Fermé' })).toEqual({
      ok: true,
      value: { active: false, inactiveMessage: 'Fermé' },
    })
  })

  it('changes one bound of an open amount and keeps the other', () => {
    expect(update({ amount_max: 1000 })).toMatchObject({
      value: { amountMin: 10000, amountMax: 100000, amount: null },
    })
    expect(update({ amount_min: 600 })).toMatchObject({
      ok: false,
      errors: { amount_max: 'amount_max must not be less than amount_min' },
    })
  })

  it('turns an open link into a fixed one, clearing the range', () => {
    expect(update({ amount: 2500 })).toMatchObject({
      value: { amount: 250000, amountMin: null, amountMax: null, invoiceId: null },
    })
  })

  it('turns a fixed link into invoice items, dropping the stored invoice id', () => {
    const fixed = {
      ...stored,
      amount: 250000,
      amountMin: null,
      amountMax: null,
      invoiceId: 'inv_9',
    }
    const r = update({ invoice_items: [{ description: 'a', quantity: 2, unit_price: 100 }] }, fixed)
    expect(r).toMatchObject({ value: { amount: 20000, invoiceId: null, amountMin: null } })
    expect(r.ok && r.value.invoiceItems).toEqual([
      { description: 'a', quantity: 2, unitPrice: 10000 },
    ])
  })

  it('keeps an invoice id when only its amount changes', () => {
    const invoice = {
      ...stored,
      amount: 250000,
      amountMin: null,
      amountMax: null,
      invoiceId: 'inv_9',
    }
    expect(update({ amount: 300 }, invoice)).toMatchObject({
      value: { amount: 30000, invoiceId: 'inv_9' },
    })
  })

  it('refuses to clear the only pricing a link has', () => {
    const fixed = { ...stored, amount: 250000, amountMin: null, amountMax: null }
    expect(update({ amount: null }, fixed)).toMatchObject({
      ok: false,
      errors: { amount: expect.stringMatching(/^amount is required/) },
    })
  })

  it('refuses a bad field, a past expiry and an empty title, naming each', () => {
    expect(update({ title: '', expires_at: '2020-01-01T00:00:00Z', max_payments: 0 })).toEqual({
      ok: false,
      errors: {
        title: 'title must not be empty',
        max_payments: 'max_payments must be at least 1',
      },
    })
    expect(update({ expires_at: '2020-01-01T00:00:00Z' })).toEqual({
      ok: false,
      errors: { expires_at: 'expires_at must be in the future' },
    })
  })

  it('clears optional fields given as null', () => {
    const full = { ...stored, description: 'x', maxPayments: 3, expiresAt: NOW + 1 }
    expect(update({ description: null, max_payments: null, expires_at: null }, full)).toEqual({
      ok: true,
      value: { description: null, maxPayments: null, expiresAt: null },
    })
  })
})

describe('the create-link body as JSON Schema (for the OpenAPI document)', () => {
  it('describes the input a client sends: title required, amounts as DZD numbers', () => {
    const schema = z.toJSONSchema(createLinkBody, { io: 'input' }) as {
      required: string[]
      properties: Record<string, { anyOf?: { description?: string; type?: string }[] }>
      additionalProperties: boolean
    }
    expect(schema.required).toEqual(['title'])
    expect(schema.additionalProperties).toBe(false)
    expect(schema.properties.amount?.anyOf?.[0]).toMatchObject({
      type: 'number',
      description: expect.stringMatching(/DZD/),
    })
    expect(schema.properties.expires_at?.anyOf?.[0]?.description).toMatch(/ISO 8601/)
    expect(Object.keys(schema.properties)).toContain('invoice_items')
  })
})
