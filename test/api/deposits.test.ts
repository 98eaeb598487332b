/**
 * `allow_partial` on the links API: which links take it and the field each refusal names, what it
 * does to `max_payments`, and the read-only `amount_due` and `balance` of every link object.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { linkObject } from '../../src/api/links/objects.js'
import { createLink } from '../../src/data/links.js'
import { type Paylinks, startPaylinks } from '../support/harness.js'
import { linkValues, postLink } from '../support/links.js'
import { api } from './helpers.js'

let p: Paylinks
let ip = 0
const fresh = () => ({ 'x-test-ip': `10.1.0.${++ip}` })

beforeAll(async () => {
  p = await startPaylinks()
})
afterAll(() => p.close())

const partial = (min: unknown) => ({ allow_partial: { min_amount: min } })

/** Bad bodies and the field each refusal must name. */
const BAD: [string, Record<string, unknown>, string][] = [
  ['an open amount', { title: 'Don', amount_min: 100, ...partial(100) }, 'allow_partial'],
  [
    'a least part under 50 DZD',
    { title: 'Cours', amount: 3000, ...partial(49.99) },
    'allow_partial.min_amount',
  ],
  [
    'a least part equal to the amount',
    { title: 'Cours', amount: 3000, ...partial(3000) },
    'allow_partial.min_amount',
  ],
  [
    'a least part above the amount',
    { title: 'Cours', amount: 3000, ...partial(3500) },
    'allow_partial.min_amount',
  ],
  [
    'a least part as text',
    { title: 'Cours', amount: 3000, ...partial('1000') },
    'allow_partial.min_amount',
  ],
  [
    'allow_partial as a number',
    { title: 'Cours', amount: 3000, allow_partial: 1000 },
    'allow_partial',
  ],
  [
    'an unknown key in allow_partial',
    { title: 'Cours', amount: 3000, allow_partial: { min_amount: 1000, max: 2 } },
    'allow_partial.max',
  ],
  [
    'max_payments with it',
    { title: 'Cours', amount: 3000, max_payments: 3, ...partial(1000) },
    'max_payments',
  ],
]

describe('allow_partial on a new link', () => {
  it.each(BAD)('refuses %s with 400 naming %s', async (_name, body, field) => {
    const res = await api(p, 'POST', '/api/v1/links', { json: body, headers: fresh() })
    expect(res.status).toBe(400)
    expect(res.body.error.fields[field]).toMatch(new RegExp(`^${field.replace('.', '\\.')} `))
  })

  it('is taken by a fixed link and an invoice link, which then have no max_payments', async () => {
    const fixed = await postLink(p, { title: 'Cours', amount: 3000, ...partial(1000) })
    expect(linkObject.strict().parse(fixed)).toEqual(fixed)
    expect(fixed).toMatchObject({
      allow_partial: { min_amount: 1000 },
      max_payments: null,
      amount_due: 3000,
      paid_total: 0,
      balance: 3000,
    })
    const invoice = await postLink(p, {
      title: 'Facture',
      amount: 500,
      invoice_id: 'inv_9',
      ...partial(100),
    })
    expect(invoice).toMatchObject({ max_payments: null, amount_due: 500, balance: 500 })
  })

  it('is refused by a checkout, which names the field', async () => {
    const res = await api(p, 'POST', '/api/v1/checkouts', {
      json: { amount: 3000, ...partial(1000) },
      headers: fresh(),
    })
    expect(res.status).toBe(400)
    expect(res.body.error.fields).toHaveProperty(['allow_partial'])
  })
})

describe('allow_partial on an update', () => {
  it('turns deposits on for an invoice link, clearing its single payment, and off again', async () => {
    const invoice = await postLink(p, { title: 'Facture', amount: 500, invoice_id: 'inv_10' })
    expect(invoice.max_payments).toBe(1)
    const on = await api(p, 'PATCH', `/api/v1/links/${invoice.id}`, {
      json: partial(100),
      headers: fresh(),
    })
    expect(on.status).toBe(200)
    expect(on.body).toMatchObject({ allow_partial: { min_amount: 100 }, max_payments: null })
    const off = await api(p, 'PATCH', `/api/v1/links/${invoice.id}`, {
      json: { allow_partial: null, max_payments: 1 },
      headers: fresh(),
    })
    expect(off.body).toMatchObject({ allow_partial: null, max_payments: 1 })
  })

  it('refuses what a deposit link cannot stand, naming the field', async () => {
    const link = await postLink(p, { title: 'Cours', amount: 3000, ...partial(1000) })
    const cases: [Record<string, unknown>, string][] = [
      [{ amount_min: 100 }, 'allow_partial'],
      [{ amount: 1000 }, 'allow_partial.min_amount'],
      [{ max_payments: 2 }, 'max_payments'],
    ]
    for (const [body, field] of cases) {
      const res = await api(p, 'PATCH', `/api/v1/links/${link.id}`, {
        json: body,
        headers: fresh(),
      })
      expect(res.status, JSON.stringify(body)).toBe(400)
      expect(res.body.error.fields).toHaveProperty([field])
    }
  })

  it('refuses it on a till sale', async () => {
    const sale = await createLink(p.deps.db, linkValues(), p.deps.clock(), { source: 'till' })
    const res = await api(p, 'PATCH', `/api/v1/links/${sale.id}`, {
      json: partial(100),
      headers: fresh(),
    })
    expect(res.status).toBe(400)
    expect(res.body.error.fields.allow_partial).toMatch(/^allow_partial /)
  })
})

describe('amount_due and balance', () => {
  it('are the amount for a fixed link and null for an open one, deposit or not', async () => {
    const fixed = await postLink(p, { title: 'Cours', amount: 1500 })
    expect(fixed).toMatchObject({ allow_partial: null, amount_due: 1500, balance: 1500 })
    const open = await postLink(p, { title: 'Don', amount_min: 100 })
    expect(open).toMatchObject({ allow_partial: null, amount_due: null, balance: null })
  })
})
