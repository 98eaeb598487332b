/**
 * `/api/v1/checkouts`: a checkout made from an amount or from line items, its answers and its
 * refusals (400 for a body that breaks a rule, 422 for what this Paylinks does not offer), read
 * back and listed, expired on request (409 when it is not open or a payment is under way), kept
 * out of the links list, replayed under an Idempotency-Key, audited, and expired by the reconciler
 * once its time has passed and no payment holds it.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { checkoutList, checkoutObject } from '../../src/api/checkouts/objects.js'
import { applyOutcome } from '../../src/data/payments.js'
import { reconcile } from '../../src/payments/reconcile.js'
import { type Paylinks, startPaylinks } from '../support/harness.js'
import { api, payThroughCheckout, rowCount } from './helpers.js'

const T0 = Date.UTC(2026, 10, 28, 9, 0, 0)
let now = T0
let p: Paylinks
beforeEach(async () => {
  now = T0
  p = await startPaylinks({ clock: () => now })
})
afterEach(() => p.close())

const SHOP = 'https://shop.example.dz'
const ORDER = {
  line_items: [
    { name: 'Tajine en terre cuite', quantity: 2, unit_price: 1299.5 },
    { name: 'Livraison', quantity: 1, unit_price: 400.01 },
  ],
  reference: 'CMD-1042',
  metadata: { cart: 'c_77' },
  customer: { name: 'Amina  Benali', phone: '0550 12 34 56', email: 'Amina@Example.DZ' },
  success_url: `${SHOP}/merci`,
  cancel_url: `${SHOP}/panier`,
  language: 'fr',
}

const stored = (table: 'links' | 'checkouts', id: string) =>
  p.sqlite.sqlite.prepare(`SELECT * FROM ${table} WHERE id = ?`).get(id) as Record<string, unknown>

async function create(body: Record<string, unknown>) {
  const res = await api(p, 'POST', '/api/v1/checkouts', { json: body })
  expect(res.status, JSON.stringify(res.body)).toBe(201)
  return res.body
}

describe('creating checkouts', () => {
  it('creates one from line items: 201, Location, the checkout object with their exact total', async () => {
    const res = await api(p, 'POST', '/api/v1/checkouts', { json: ORDER })
    expect(res.status).toBe(201)
    const checkout = res.body
    expect(checkoutObject.strict().parse(checkout)).toEqual(checkout)
    expect(res.headers.get('location')).toBe(`${p.url}/api/v1/checkouts/${checkout.id}`)
    expect(checkout.id).toMatch(/^chk_[0-9A-Za-z]{24}$/)
    const link = p.sqlite.sqlite
      .prepare('SELECT * FROM links WHERE id = (SELECT link_id FROM checkouts WHERE id = ?)')
      .get(checkout.id) as Record<string, unknown>
    expect(checkout).toEqual({
      id: checkout.id,
      url: `${p.url}/l/${link.slug}`,
      status: 'open',
      amount: 2999.01,
      currency: 'DZD',
      line_items: [
        {
          product_id: null,
          name: 'Tajine en terre cuite',
          quantity: 2,
          unit_price: 1299.5,
          amount: 2599,
        },
        { product_id: null, name: 'Livraison', quantity: 1, unit_price: 400.01, amount: 400.01 },
      ],
      reference: 'CMD-1042',
      metadata: { cart: 'c_77' },
      // As the checkout form would take them: one-spaced, digits only, lower case.
      customer: { name: 'Amina Benali', phone: '0550123456', email: 'amina@example.dz' },
      success_url: `${SHOP}/merci`,
      cancel_url: `${SHOP}/panier`,
      language: 'fr',
      expires_at: new Date(T0 + 1_800_000).toISOString(),
      payment_id: null,
      created_at: new Date(T0).toISOString(),
      completed_at: null,
    })
    // A link with one place, expiring with it, titled by the reference.
    expect(link).toMatchObject({
      source: 'checkout',
      max_payments: 1,
      amount: 299901,
      expires_at: T0 + 1_800_000,
      title: 'CMD-1042',
      language: 'fr',
    })
    expect(stored('checkouts', checkout.id)).toMatchObject({ amount: 299901 })
    const page = await p.app.request(new URL(checkout.url).pathname)
    expect(page.status).toBe(200)
    const again = await api(p, 'GET', new URL(res.headers.get('location')!).pathname)
    expect(again.body).toEqual(checkout)
  })

  it('creates one from an amount, with the defaults: the store language, 30 minutes, no customer', async () => {
    const checkout = await create({ amount: 1500, success_url: `${SHOP}/ok` })
    expect(checkout).toMatchObject({
      amount: 1500,
      line_items: null,
      reference: null,
      metadata: {},
      customer: { name: null, phone: null, email: null },
      cancel_url: null,
      language: p.deps.config.defaultLanguage,
      expires_at: new Date(T0 + 1_800_000).toISOString(),
    })
    const custom = await create({ amount: 50, success_url: `${SHOP}/ok`, expires_in: 86_400 })
    expect(custom.expires_at).toBe(new Date(T0 + 86_400_000).toISOString())
  })

  it("titles the link by the reference, else the lines' names, else a word in its language", async () => {
    const title = async (body: Record<string, unknown>) => {
      const { id } = await create({ success_url: `${SHOP}/ok`, ...body })
      return (
        p.sqlite.sqlite
          .prepare(
            'SELECT title FROM links WHERE id = (SELECT link_id FROM checkouts WHERE id = ?)',
          )
          .get(id) as { title: string }
      ).title
    }
    expect(await title({ line_items: ORDER.line_items })).toBe('Tajine en terre cuite, Livraison')
    expect(await title({ amount: 900, language: 'ar' })).toBe('طلب')
    expect(await title({ amount: 900, language: 'en' })).toBe('Order')
    const long = [{ name: 'x'.repeat(150), quantity: 1, unit_price: 60 }]
    expect((await title({ line_items: [...long, ...long] })).length).toBe(200)
  })

  it('takes custom_fields: [] and allow_promo_codes: false, the only values offered', async () => {
    const checkout = await create({
      amount: 900,
      success_url: `${SHOP}/ok`,
      custom_fields: [],
      allow_promo_codes: false,
    })
    expect(checkout.status).toBe('open')
  })
})

describe('refusing a checkout body', () => {
  const refused = async (body: unknown, status: 400 | 422 = 400) => {
    const before = rowCount(p, 'links')
    const res = await api(p, 'POST', '/api/v1/checkouts', { json: body })
    expect(res.status, JSON.stringify(res.body)).toBe(status)
    expect(rowCount(p, 'links')).toBe(before)
    return res.body.error
  }
  const base = { success_url: `${SHOP}/ok` }

  it('answers 400 invalid_body naming each bad field, in the API words', async () => {
    expect(await refused({ ...base })).toEqual({
      code: 'invalid_body',
      message: 'The request body has invalid fields: amount.',
      fields: { amount: 'amount is required: give amount or line_items' },
    })
    const cases: [Record<string, unknown>, Record<string, string>][] = [
      [{ amount: 900 }, { success_url: 'success_url is required' }],
      [
        { ...base, amount: 900, line_items: ORDER.line_items },
        { amount: 'amount must be left out with line_items: the amount is their total' },
      ],
      [{ ...base, amount: 49.99 }, { amount: 'amount must be at least 50 DZD' }],
      [
        { ...base, line_items: [{ name: 'Pain', quantity: 1, unit_price: 20 }] },
        { line_items: 'line_items total must be at least 50 DZD' },
      ],
      [
        { ...base, line_items: [{ name: 'Pain', quantity: 1000, unit_price: 20 }] },
        { 'line_items[0].quantity': 'line_items[0].quantity must be at most 999' },
      ],
      [
        { ...base, line_items: [{ name: 'Pain', quantity: 0, unit_price: 20 }] },
        { 'line_items[0].quantity': 'line_items[0].quantity must be at least 1' },
      ],
      [
        { ...base, line_items: Array(21).fill({ name: 'Pain', quantity: 1, unit_price: 60 }) },
        { line_items: 'line_items must list at most 20 items' },
      ],
      [
        { ...base, line_items: [{ quantity: 1, unit_price: 60 }] },
        { 'line_items[0].name': 'line_items[0].name is required' },
      ],
      [
        { ...base, line_items: [{ product_id: 'prod_1', name: 'Pain', quantity: 1 }] },
        { 'line_items[0].name': 'line_items[0].name cannot be combined with product_id' },
      ],
      [
        { ...base, line_items: ['Pain'] },
        {
          'line_items[0]':
            'line_items[0] must be an object with name, quantity and unit_price, or with product_id and quantity',
        },
      ],
      [
        { ...base, amount: 900, expires_in: 299 },
        { expires_in: 'expires_in must be at least 300' },
      ],
      [
        { ...base, amount: 900, expires_in: 86_401 },
        { expires_in: 'expires_in must be at most 86400' },
      ],
      [
        { amount: 900, success_url: 'ftp://shop.example.dz/ok' },
        { success_url: 'success_url must be an http:// or https:// URL' },
      ],
      [
        { ...base, amount: 900, cancel_url: 'javascript:alert(1)' },
        { cancel_url: 'cancel_url must be an http:// or https:// URL' },
      ],
      [
        { ...base, amount: 900, reference: 'r'.repeat(101) },
        { reference: 'reference must be at most 100 characters' },
      ],
      [
        { ...base, amount: 900, reference: 'CMD\u0000' },
        {
          reference: 'reference must be plain text: no control characters and no invalid UTF-8',
        },
      ],
      [
        { ...base, amount: 900, language: 'de' },
        { language: 'language must be one of ar, fr, en' },
      ],
      [
        { ...base, amount: 900, customer: { name: 'A', phone: '12', email: 'amina@' } },
        {
          'customer.name': 'customer.name must be a name of 2 to 100 characters, without < or >',
          'customer.phone':
            'customer.phone must be a phone number, e.g. 0550123456 or +213550123456',
          'customer.email': 'customer.email must be an e-mail address',
        },
      ],
      [{ ...base, amount: 900, customer: 'Amina' }, { customer: 'customer must be a JSON object' }],
      [{ ...base, amount: 900, mode: 'payment' }, { mode: 'mode is not a field of a checkout' }],
      [
        { ...base, amount: 900, metadata: { 'bad key': 'x' } },
        { metadata: 'metadata keys must be made of letters, digits, _, . and - only' },
      ],
    ]
    for (const [body, fields] of cases) {
      const error = await refused(body)
      expect(error.code, JSON.stringify(body)).toBe('invalid_body')
      expect(error.fields, JSON.stringify(body)).toEqual(fields)
    }
    expect((await refused([1, 2])).fields).toEqual({ body: 'body must be a JSON object' })
  })

  const product = async (name: string) =>
    (await api(p, 'POST', '/api/v1/products', { json: { name, price: 1000 } })).body as {
      id: string
    }

  it('answers 422 unprocessable_body for an unknown or archived product', async () => {
    // A product the catalogue has not (or no longer sells) is named, once the body is well formed.
    const tapis = await product('Tapis')
    const gone = await product('Vieux')
    await api(p, 'PATCH', `/api/v1/products/${gone.id}`, { json: { active: false } })
    expect(
      await refused(
        {
          ...base,
          line_items: [
            { product_id: tapis.id, quantity: 1 },
            { product_id: 'prod_8Kx2', quantity: 2 },
            { product_id: gone.id, quantity: 1 },
          ],
        },
        422,
      ),
    ).toEqual({
      code: 'unprocessable_body',
      message:
        'The request body asks for what this Paylinks does not offer: line_items[1].product_id, line_items[2].product_id.',
      fields: {
        'line_items[1].product_id': 'line_items[1].product_id names no product of this Paylinks',
        'line_items[2].product_id': 'line_items[2].product_id names an archived product',
      },
    })
    // A body that also breaks a rule is told that first.
    expect(
      (await refused({ line_items: [{ product_id: 'prod_8Kx2', quantity: 2 }] })).fields,
    ).toEqual({ success_url: 'success_url is required' })
  })
})

describe('reading and listing checkouts', () => {
  it('reads one by id, and answers 404 for an unknown id', async () => {
    const made = await create({ ...ORDER })
    const res = await api(p, 'GET', `/api/v1/checkouts/${made.id}`)
    expect(res.body).toEqual(made)
    const missing = await api(p, 'GET', '/api/v1/checkouts/chk_nope')
    expect(missing.status).toBe(404)
    expect(missing.body.error).toEqual({ code: 'not_found', message: 'No checkout has this id.' })
  })

  it('lists newest first by status and reference, a page at a time', async () => {
    const ids: string[] = []
    for (let i = 0; i < 5; i++) {
      now = T0 + i * 1000
      ids.push(
        (await create({ amount: 900, success_url: `${SHOP}/ok`, reference: `R-${i % 2}` })).id,
      )
    }
    await api(p, 'POST', `/api/v1/checkouts/${ids[0]}/expire`)
    const seen: string[] = []
    let cursor: string | null = null
    do {
      const res = await api(
        p,
        'GET',
        `/api/v1/checkouts?limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      )
      expect(res.status).toBe(200)
      expect(checkoutList.parse(res.body)).toBeTruthy()
      seen.push(...res.body.data.map((c: { id: string }) => c.id))
      cursor = res.body.next_cursor
      expect(res.body.has_more).toBe(cursor !== null)
    } while (cursor)
    expect(seen).toEqual([...ids].reverse())
    const byRef = await api(p, 'GET', '/api/v1/checkouts?reference=R-0')
    expect(byRef.body.data.map((c: { id: string }) => c.id)).toEqual([ids[4], ids[2], ids[0]])
    const open = await api(p, 'GET', '/api/v1/checkouts?status=open&reference=R-0')
    expect(open.body.data.map((c: { id: string }) => c.id)).toEqual([ids[4], ids[2]])
    const bad = await api(p, 'GET', '/api/v1/checkouts?status=paid&size=3')
    expect(bad.status).toBe(400)
    expect(bad.body.error.fields).toEqual({
      status: 'status must be one of open, completed, expired, canceled',
      size: 'size is not a query parameter of this route',
    })
  })

  it('keeps checkout links out of the links list unless asked for by source', async () => {
    const link = await api(p, 'POST', '/api/v1/links', { json: { title: 'Cours', amount: 900 } })
    const checkout = await create({ amount: 900, success_url: `${SHOP}/ok` })
    const linkOf = stored('checkouts', checkout.id).link_id
    const all = await api(p, 'GET', '/api/v1/links')
    expect(all.body.data.map((l: { id: string }) => l.id)).toEqual([link.body.id])
    const only = await api(p, 'GET', '/api/v1/links?source=checkout')
    expect(only.body.data.map((l: { id: string }) => l.id)).toEqual([linkOf])
  })
})

describe("a checkout's link", () => {
  it('is changed or deleted through its checkout only (409 link_belongs_to_checkout)', async () => {
    const made = await create({ amount: 900, success_url: `${SHOP}/ok` })
    const linkId = String(stored('checkouts', made.id).link_id)
    const patch = await api(p, 'PATCH', `/api/v1/links/${linkId}`, { json: { max_payments: 5 } })
    const del = await api(p, 'DELETE', `/api/v1/links/${linkId}`)
    for (const res of [patch, del]) {
      expect(res.status).toBe(409)
      expect(res.body.error.code).toBe('link_belongs_to_checkout')
    }
    expect(stored('links', linkId)).toMatchObject({ max_payments: 1 })
    expect((await api(p, 'GET', `/api/v1/links/${linkId}`)).status).toBe(200)
  })
})

describe('expiring a checkout', () => {
  it('expires an open one (its page stops taking payments), then answers 409 checkout_not_open', async () => {
    const made = await create({ ...ORDER })
    now += 60_000
    const res = await api(p, 'POST', `/api/v1/checkouts/${made.id}/expire`)
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ ...made, status: 'expired' })
    expect(stored('checkouts', made.id)).toMatchObject({ status: 'expired', updated_at: now })
    const page = await (await p.app.request(new URL(made.url).pathname)).text()
    expect(page).not.toContain('name="csrf"')

    const again = await api(p, 'POST', `/api/v1/checkouts/${made.id}/expire`)
    expect(again.status).toBe(409)
    expect(again.body.error).toEqual({
      code: 'checkout_not_open',
      message: 'This checkout is expired; only an open checkout can be expired.',
    })
    expect((await api(p, 'POST', '/api/v1/checkouts/chk_nope/expire')).status).toBe(404)
  })

  it('answers 409 checkout_payment_in_progress with Retry-After while a customer is paying', async () => {
    const made = await create({ ...ORDER })
    const slug = new URL(made.url).pathname.split('/').pop()!
    now += 60_000
    const { payment } = await payThroughCheckout(p, slug)
    now += 5 * 60_000
    const res = await api(p, 'POST', `/api/v1/checkouts/${made.id}/expire`)
    expect(res.status).toBe(409)
    expect(res.body.error.code).toBe('checkout_payment_in_progress')
    // The card page's 20-minute session, counted from the payment's start.
    expect(res.headers.get('retry-after')).toBe(String(15 * 60))
    expect(stored('checkouts', made.id).status).toBe('open')

    await applyOutcome(p.deps.db, payment.id, 'failed', {}, now, 'webhook')
    const done = await api(p, 'POST', `/api/v1/checkouts/${made.id}/expire`)
    expect(done.status).toBe(200)
    expect(done.body.status).toBe('expired')
  })
})

describe('payments made in checkouts', () => {
  it('are listed by source=checkout, naming their checkout and carrying its reference', async () => {
    await api(p, 'POST', '/api/v1/links', { json: { title: 'Cours', amount: 900 } })
    const made = await create({ ...ORDER })
    const { payment } = await payThroughCheckout(p, new URL(made.url).pathname.split('/').pop()!)
    const res = await api(p, 'GET', '/api/v1/payments?source=checkout')
    expect(res.status).toBe(200)
    expect(res.body.data).toHaveLength(1)
    expect(res.body.data[0]).toMatchObject({
      id: payment.id,
      source: 'checkout',
      checkout_id: made.id,
      ref: 'CMD-1042',
      metadata: { cart: 'c_77' },
      amount: 2999.01,
    })
    const others = await api(p, 'GET', '/api/v1/payments?source=api')
    expect(others.body.data).toEqual([])
  })
})

describe('a checkout created with an Idempotency-Key', () => {
  it('answers the same checkout to a replayed create, and makes one', async () => {
    const headers = { 'idempotency-key': 'order-1042' }
    const first = await api(p, 'POST', '/api/v1/checkouts', { json: ORDER, headers })
    expect(first.status).toBe(201)
    now += 30_000
    const again = await api(p, 'POST', '/api/v1/checkouts', { json: ORDER, headers })
    expect(again.status).toBe(201)
    expect(again.headers.get('idempotent-replayed')).toBe('true')
    expect(again.body).toEqual(first.body)
    expect(again.headers.get('location')).toBe(first.headers.get('location'))
    const count = p.sqlite.sqlite.prepare('SELECT count(*) AS n FROM checkouts').get() as {
      n: number
    }
    expect(count.n).toBe(1)
  })

  it('keeps nothing for a 422, so the corrected body runs under the same key', async () => {
    const headers = { 'idempotency-key': 'order-1043' }
    const wrong = { ...ORDER, line_items: [{ product_id: 'prod_8Kx2', quantity: 2 }] }
    expect((await api(p, 'POST', '/api/v1/checkouts', { json: wrong, headers })).status).toBe(422)
    const fixed = await api(p, 'POST', '/api/v1/checkouts', { json: ORDER, headers })
    expect(fixed.status).toBe(201)
  })
})

describe('the audit log', () => {
  it('records a checkout made and one expired, with its reference and amount only', async () => {
    const made = await create({ ...ORDER })
    await api(p, 'POST', `/api/v1/checkouts/${made.id}/expire`)
    const rows = p.sqlite.sqlite
      .prepare('SELECT action, target_kind, target_id, detail FROM audit_log ORDER BY id')
      .all() as Record<string, string>[]
    expect(
      rows.map((r) => [r.action, r.target_kind, r.target_id, JSON.parse(r.detail ?? 'null')]),
    ).toEqual([
      ['checkout_created', 'checkout', made.id, { reference: 'CMD-1042', amount: 299901 }],
      ['checkout_expired', 'checkout', made.id, { reference: 'CMD-1042', amount: 299901 }],
    ])
    expect(JSON.stringify(rows)).not.toContain('amina')
  })
})

describe('expiry by the reconciler', () => {
  it('expires a checkout past its time; one with a payment under way waits for it to settle', async () => {
    const idle = await create({ amount: 900, success_url: `${SHOP}/ok`, expires_in: 300 })
    const busy = await create({ amount: 900, success_url: `${SHOP}/ok`, expires_in: 300 })
    const later = await create({ amount: 900, success_url: `${SHOP}/ok`, expires_in: 3600 })
    now += 60_000
    const { payment } = await payThroughCheckout(p, new URL(busy.url).pathname.split('/').pop()!)

    now = T0 + 300_000
    await reconcile(p.deps)
    expect(stored('checkouts', idle.id).status).toBe('expired')
    expect(stored('checkouts', busy.id).status).toBe('open')
    expect(stored('checkouts', later.id).status).toBe('open')

    now += 60_000
    await applyOutcome(p.deps.db, payment.id, 'failed', {}, now, 'webhook')
    await reconcile(p.deps)
    expect(stored('checkouts', busy.id).status).toBe('expired')
    expect(stored('checkouts', later.id).status).toBe('open')
  })
})
