/**
 * `/api/v1/promo-codes`: create (201, Location), read, list, change; a code unique whatever its
 * case (409 `promo_code_taken` naming code); exactly one of percent_off and amount_off, on create
 * and against the stored code on change; 400s naming each bad field; a read key refused writes;
 * an Idempotency-Key replayed; the audit log; links and checkouts taking `allow_promo_codes` and
 * `customer_fee`.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { linkObject } from '../../src/api/links/object-schemas.js'
import { promoCodeObject } from '../../src/api/promo-codes/object-schemas.js'
import { type Paylinks, startPaylinks } from '../support/harness.js'
import { api } from './helpers.js'

const T0 = Date.UTC(2026, 2, 1, 9, 30, 0)
let now = T0
let p: Paylinks
beforeEach(async () => {
  now = T0
  p = await startPaylinks({ clock: () => now })
})
afterEach(() => p.close())

const RAMADAN = {
  code: 'RAMADAN10',
  percent_off: 10,
  min_amount: 2000,
  max_redemptions: 100,
  expires_at: '2026-06-30T23:59:00+01:00',
}

const stored = (id: string) =>
  p.sqlite.sqlite.prepare('SELECT * FROM promo_codes WHERE id = ?').get(id) as Record<
    string,
    unknown
  >

describe('promo codes API', () => {
  it('creates a code: 201, Location, the documented object, centimes and epoch inside', async () => {
    const res = await api(p, 'POST', '/api/v1/promo-codes', { json: RAMADAN })
    expect(res.status).toBe(201)
    expect(res.headers.get('location')).toBe(`${p.url}/api/v1/promo-codes/${res.body.id}`)
    expect(res.body).toEqual({
      id: expect.stringMatching(/^promo_[0-9A-Za-z]{16}$/),
      code: 'RAMADAN10',
      percent_off: 10,
      amount_off: null,
      min_amount: 2000,
      max_redemptions: 100,
      expires_at: '2026-06-30T22:59:00.000Z',
      active: true,
      times_redeemed: 0,
      created_at: new Date(T0).toISOString(),
      updated_at: new Date(T0).toISOString(),
    })
    expect(promoCodeObject.strict().safeParse(res.body).success).toBe(true)
    expect(stored(res.body.id)).toMatchObject({ min_amount: 200_000, percent_off: 10 })
    now += 1000
    const amount = await api(p, 'POST', '/api/v1/promo-codes', {
      json: { code: 'bienvenue', amount_off: 499.5 },
    })
    expect(amount.body).toMatchObject({ amount_off: 499.5, percent_off: null, min_amount: null })
    expect(stored(amount.body.id)).toMatchObject({ amount_off: 49_950 })
    expect((await api(p, 'GET', `/api/v1/promo-codes/${res.body.id}`)).body).toEqual(res.body)
    const list = await api(p, 'GET', '/api/v1/promo-codes')
    expect(list.body.data.map((c: { code: string }) => c.code)).toEqual(['bienvenue', 'RAMADAN10'])
    expect((await api(p, 'GET', '/api/v1/promo-codes/promo_none')).status).toBe(404)
  })

  it('refuses a code another has in any case: 409 promo_code_taken naming code', async () => {
    const first = await api(p, 'POST', '/api/v1/promo-codes', { json: RAMADAN })
    const twin = await api(p, 'POST', '/api/v1/promo-codes', {
      json: { code: 'ramadan10', amount_off: 100 },
    })
    expect(twin.status).toBe(409)
    expect(twin.body.error).toEqual({
      code: 'promo_code_taken',
      message: 'Another promo code has this code.',
      fields: { code: 'code is already another promo code (whatever its case)' },
    })
    const other = await api(p, 'POST', '/api/v1/promo-codes', {
      json: { code: 'X-1', percent_off: 5 },
    })
    const renamed = await api(p, 'PATCH', `/api/v1/promo-codes/${other.body.id}`, {
      json: { code: 'Ramadan10' },
    })
    expect(renamed.status).toBe(409)
    expect(stored(first.body.id).code).toBe('RAMADAN10')
  })

  it('names each bad field: 400 invalid_body', async () => {
    const bad = await api(p, 'POST', '/api/v1/promo-codes', {
      json: {
        code: 'a b',
        percent_off: 101,
        min_amount: -1,
        max_redemptions: 0,
        expires_at: 'tomorrow',
        colour: 'red',
      },
    })
    expect(bad.status).toBe(400)
    expect(bad.body.error.fields).toEqual({
      code: 'code must be 3 to 40 letters, digits, _ or -',
      percent_off: 'percent_off must be at most 100',
      min_amount:
        'min_amount must be an amount of DZD that is not negative and has at most two decimals',
      max_redemptions: 'max_redemptions must be at least 1',
      expires_at:
        'expires_at must be an ISO 8601 date and time with a time zone, e.g. 2026-06-30T23:59:00+01:00',
      colour: 'colour is not a field of a promo code',
    })
    const both = await api(p, 'POST', '/api/v1/promo-codes', {
      json: { code: 'BOTH', percent_off: 10, amount_off: 100 },
    })
    expect(both.body.error.fields).toEqual({
      percent_off:
        'percent_off needs the other kind left out: give percent_off or amount_off, one of them',
    })
    const none = await api(p, 'POST', '/api/v1/promo-codes', { json: { code: 'NONE' } })
    expect(Object.keys(none.body.error.fields)).toEqual(['percent_off'])
    expect(p.sqlite.sqlite.prepare('SELECT count(*) AS n FROM promo_codes').get()).toEqual({ n: 0 })
  })

  it('changes the fields sent, switching the kind of discount with null for the other', async () => {
    const made = (await api(p, 'POST', '/api/v1/promo-codes', { json: RAMADAN })).body
    now += 60_000
    const added = await api(p, 'PATCH', `/api/v1/promo-codes/${made.id}`, {
      json: { amount_off: 300 },
    })
    expect(added.status).toBe(400)
    expect(added.body.error.fields).toEqual({
      amount_off:
        'amount_off needs the other kind left out: give percent_off or amount_off, one of them',
    })
    const switched = await api(p, 'PATCH', `/api/v1/promo-codes/${made.id}`, {
      json: { amount_off: 300, percent_off: null, active: false, expires_at: null },
    })
    expect(switched.status).toBe(200)
    expect(switched.body).toMatchObject({
      code: 'RAMADAN10',
      percent_off: null,
      amount_off: 300,
      active: false,
      expires_at: null,
      max_redemptions: 100,
      updated_at: new Date(now).toISOString(),
    })
    const actions = p.sqlite.sqlite
      .prepare("SELECT action, detail FROM audit_log WHERE action LIKE 'promo_code%' ORDER BY id")
      .all()
    expect(actions).toEqual([
      { action: 'promo_code_created', detail: JSON.stringify({ code: 'RAMADAN10' }) },
      {
        action: 'promo_code_deactivated',
        detail: JSON.stringify({
          code: 'RAMADAN10',
          fields: ['active', 'amount_off', 'expires_at', 'percent_off'],
        }),
      },
    ])
    expect((await api(p, 'PATCH', '/api/v1/promo-codes/promo_none', { json: {} })).status).toBe(404)
  })

  it('lets a read key list but not write (403), and answers 405 to another method', async () => {
    const key = (
      await api(p, 'POST', '/api/v1/api-keys', { json: { name: 'shop', scope: 'read' } })
    ).body.key as string
    expect((await api(p, 'GET', '/api/v1/promo-codes', { token: key })).status).toBe(200)
    const write = await api(p, 'POST', '/api/v1/promo-codes', { token: key, json: RAMADAN })
    expect(write.status).toBe(403)
    const del = await api(p, 'DELETE', '/api/v1/promo-codes/promo_x')
    expect(del.status).toBe(405)
    expect(del.headers.get('allow')).toBe('GET, PATCH')
  })

  it('replays a create sent again with the same Idempotency-Key, making one code', async () => {
    const headers = { 'idempotency-key': 'promo-import-3' }
    const first = await api(p, 'POST', '/api/v1/promo-codes', { json: RAMADAN, headers })
    now += 60_000
    const again = await api(p, 'POST', '/api/v1/promo-codes', { json: RAMADAN, headers })
    expect(again.status).toBe(201)
    expect(again.headers.get('idempotent-replayed')).toBe('true')
    expect(again.body).toEqual(first.body)
    expect(p.sqlite.sqlite.prepare('SELECT count(*) AS n FROM promo_codes').get()).toEqual({ n: 1 })
  })
})

describe('links and checkouts take promo codes and the customer fee', () => {
  it('stores allow_promo_codes and customer_fee on a link and answers them', async () => {
    const made = await api(p, 'POST', '/api/v1/links', {
      json: { title: 'Atelier', amount: 1500, allow_promo_codes: true, customer_fee: true },
    })
    expect(made.status).toBe(201)
    expect(made.body).toMatchObject({ allow_promo_codes: true, customer_fee: true })
    expect(linkObject.strict().safeParse(made.body).success).toBe(true)
    const off = await api(p, 'PATCH', `/api/v1/links/${made.body.id}`, {
      json: { customer_fee: false },
    })
    expect(off.body).toMatchObject({ allow_promo_codes: true, customer_fee: false })
    const plain = await api(p, 'POST', '/api/v1/links', { json: { title: 'Don', amount: 900 } })
    expect(plain.body).toMatchObject({ allow_promo_codes: false, customer_fee: false })
    const bad = await api(p, 'POST', '/api/v1/links', {
      json: { title: 'Don', amount: 900, allow_promo_codes: 'yes' },
    })
    expect(bad.body.error.fields).toEqual({
      allow_promo_codes: 'allow_promo_codes must be true or false',
    })
  })

  it('makes a checkout whose link takes promo codes', async () => {
    const res = await api(p, 'POST', '/api/v1/checkouts', {
      json: { amount: 900, success_url: 'https://shop.example.dz/ok', allow_promo_codes: true },
    })
    expect(res.status).toBe(201)
    const link = p.sqlite.sqlite
      .prepare('SELECT allow_promo_codes FROM links WHERE source = ?')
      .get('checkout')
    expect(link).toEqual({ allow_promo_codes: 1 })
  })
})
