import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MAX_BODY_BYTES } from '../../src/api/body.js'
import { type Paylinks, startPaylinks } from '../support/harness.js'
import { postLink } from '../support/links.js'
import { api, rowCount } from './helpers.js'

const T0 = Date.UTC(2026, 0, 15, 9, 0, 0)
let p: Paylinks
let existing: { id: string; updated_at: string }
// Each case gets its own client address so the write rate limit is never what answers.
let ip = 0
const fresh = () => ({ 'x-test-ip': `10.0.0.${++ip}` })

beforeAll(async () => {
  p = await startPaylinks({ clock: () => T0 })
  existing = await postLink(p, { title: 'Cours', amount: 1500 })
})
afterAll(() => p.close())

const item = { description: 'Livre', quantity: 1, unit_price: 100 }

/** Bad bodies and the field each one must name. */
const BAD: [string, unknown, string][] = [
  ['no title', { amount: 1500 }, 'title'],
  ['an empty title', { title: '   ', amount: 1500 }, 'title'],
  ['a title of 201 characters', { title: 'x'.repeat(201), amount: 1500 }, 'title'],
  ['no pricing', { title: 'Cours' }, 'amount'],
  ['three decimals', { title: 'Cours', amount: 12.345 }, 'amount'],
  ['a negative amount', { title: 'Cours', amount: -5 }, 'amount'],
  ['an amount as text', { title: 'Cours', amount: '1500' }, 'amount'],
  ['an amount under 50 DZD', { title: 'Cours', amount: 49.99 }, 'amount'],
  ['an amount over the ceiling', { title: 'Cours', amount: 100_000_000.01 }, 'amount'],
  ['amount with amount_min', { title: 'Don', amount: 100, amount_min: 60 }, 'amount_min'],
  ['amount_max under amount_min', { title: 'Don', amount_min: 100, amount_max: 80 }, 'amount_max'],
  ['invoice_id without amount', { title: 'Facture', invoice_id: 'inv_1' }, 'amount'],
  ['no invoice items', { title: 'Commande', invoice_items: [] }, 'invoice_items'],
  [
    'a zero quantity',
    { title: 'Commande', invoice_items: [{ ...item, quantity: 0 }] },
    'invoice_items[0].quantity',
  ],
  [
    'a fractional quantity',
    { title: 'Commande', invoice_items: [{ ...item, quantity: 1.5 }] },
    'invoice_items[0].quantity',
  ],
  [
    'an unknown item field',
    { title: 'Commande', invoice_items: [{ ...item, sku: 'A1' }] },
    'invoice_items[0].sku',
  ],
  [
    'items under 50 DZD in total',
    { title: 'Commande', invoice_items: [{ ...item, unit_price: 10 }] },
    'invoice_items',
  ],
  [
    'items with invoice_id',
    { title: 'Commande', invoice_items: [item], invoice_id: 'inv_1' },
    'invoice_id',
  ],
  [
    'an expiry in the past',
    { title: 'Cours', amount: 100, expires_at: '2026-01-15T08:59:59Z' },
    'expires_at',
  ],
  [
    'an expiry without a time zone',
    { title: 'Cours', amount: 100, expires_at: '2026-06-30T23:59:00' },
    'expires_at',
  ],
  ['an unknown language', { title: 'Cours', amount: 100, language: 'de' }, 'language'],
  [
    'a javascript: success_url',
    { title: 'Cours', amount: 100, success_url: 'javascript:alert(1)' },
    'success_url',
  ],
  ['max_payments of 0', { title: 'Cours', amount: 100, max_payments: 0 }, 'max_payments'],
  ['active as text', { title: 'Cours', amount: 100, active: 'yes' }, 'active'],
  ['an unknown field', { title: 'Cours', amount: 100, colour: 'blue' }, 'colour'],
  ['an array body', [{ title: 'Cours', amount: 100 }], 'body'],
  ['a null body', null, 'body'],
]

describe('create-link validation', () => {
  it.each(BAD)('refuses %s with 400 naming %s, and creates nothing', async (_name, body, field) => {
    const links = rowCount(p, 'links')
    const invoices = (await p.simulator.inspect()).invoices.length
    const res = await api(p, 'POST', '/api/v1/links', { json: body, headers: fresh() })
    expect(res.status).toBe(400)
    expect(res.body.error.code).toBe('invalid_body')
    expect(res.body.error.message).toContain(field)
    expect(res.body.error.fields[field]).toMatch(new RegExp(`^${field.replace(/[[\]]/g, '\\$&')} `))
    expect(rowCount(p, 'links')).toBe(links)
    expect((await p.simulator.inspect()).invoices.length).toBe(invoices)
  })

  it('names every bad field of one body at once', async () => {
    const res = await api(p, 'POST', '/api/v1/links', {
      json: { title: '', amount: 'x', language: 'de' },
      headers: fresh(),
    })
    expect(Object.keys(res.body.error.fields).sort()).toEqual(['amount', 'language', 'title'])
  })
})

describe('update-link validation', () => {
  // These three are fine as changes to a fixed-amount link (an invoice id keeps its amount).
  const validAsPatch = ['no title', 'no pricing', 'invoice_id without amount']
  it.each(BAD.filter(([name]) => !validAsPatch.includes(name)))(
    'refuses a PATCH with %s (naming %s) and leaves the link as it was',
    async (_name, body, field) => {
      const before = await api(p, 'GET', `/api/v1/links/${existing.id}`)
      const res = await api(p, 'PATCH', `/api/v1/links/${existing.id}`, {
        json: body,
        headers: fresh(),
      })
      expect(res.status).toBe(400)
      expect(res.body.error.fields).toHaveProperty([field])
      expect((await api(p, 'GET', `/api/v1/links/${existing.id}`)).body).toEqual(before.body)
    },
  )
})

describe('bodies that are not JSON objects', () => {
  const post = (raw: string, contentType?: string) =>
    api(p, 'POST', '/api/v1/links', {
      raw,
      headers: { ...fresh(), ...(contentType ? { 'content-type': contentType } : {}) },
    })

  it('answers 400 invalid_json to malformed JSON', async () => {
    for (const raw of ['{"title": "Cours", "amount": 15', '{title: "x"}', "{'a': 1}", 'NaN']) {
      const res = await post(raw, 'application/json')
      expect(res.status).toBe(400)
      expect(res.body.error.code).toBe('invalid_json')
    }
  })

  it('answers 400 invalid_json to an empty body', async () => {
    const res = await post('', 'application/json')
    expect(res.status).toBe(400)
    expect(res.body.error).toMatchObject({
      code: 'invalid_json',
      message: expect.stringMatching(/empty/),
    })
  })

  it('answers 415 to a body that is not declared as JSON', async () => {
    const json = JSON.stringify({ title: 'Cours', amount: 1500 })
    for (const type of [
      undefined,
      'text/plain',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
    ]) {
      const res = await post(json, type)
      expect(res.status).toBe(415)
      expect(res.body.error.code).toBe('unsupported_media_type')
    }
  })

  it('accepts application/json with a charset', async () => {
    const res = await post(
      JSON.stringify({ title: 'Cours', amount: 1500 }),
      'application/json; charset=utf-8',
    )
    expect(res.status).toBe(201)
  })

  it('answers 413 to a body over the size limit and creates nothing', async () => {
    const links = rowCount(p, 'links')
    const raw = JSON.stringify({
      title: 'Cours',
      amount: 1500,
      description: 'x'.repeat(MAX_BODY_BYTES),
    })
    const res = await post(raw, 'application/json')
    expect(res.status).toBe(413)
    expect(res.body.error.code).toBe('payload_too_large')
    expect(rowCount(p, 'links')).toBe(links)
  })
})

describe('routes and methods', () => {
  it('answers 404 JSON for an unknown route under /api/v1', async () => {
    const res = await api(p, 'GET', '/api/v1/refunds')
    expect(res.status).toBe(404)
    expect(res.body.error.code).toBe('not_found')
  })

  it('answers 405 with Allow for a method a route does not take', async () => {
    for (const [method, path, allow] of [
      ['PUT', '/api/v1/links', 'GET, POST'],
      ['DELETE', '/api/v1/links', 'GET, POST'],
      ['POST', `/api/v1/links/${existing.id}`, 'GET, PATCH, DELETE'],
      ['POST', '/api/v1/payments', 'GET'],
      ['PATCH', '/api/v1/payments/pay_x', 'GET'],
    ] as const) {
      const res = await api(p, method, path)
      expect(res.status, `${method} ${path}`).toBe(405)
      expect(res.headers.get('allow')).toBe(allow)
      expect(res.body.error.code).toBe('method_not_allowed')
    }
  })

  it('answers bad list query parameters with 400 naming each one', async () => {
    const res = await api(p, 'GET', '/api/v1/links?limit=0&active=yes&cursor=abc&sort=title')
    expect(res.status).toBe(400)
    expect(res.body.error.code).toBe('invalid_query')
    expect(Object.keys(res.body.error.fields).sort()).toEqual(['active', 'cursor', 'limit', 'sort'])
    expect(res.body.error.fields.sort).toBe('sort is not a query parameter of this route')
  })
})
