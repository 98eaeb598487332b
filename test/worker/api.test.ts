/**
 * The merchant API on the Worker as `wrangler deploy` uploads it (wrangler.toml's top level): its
 * routes, its bodies and queries parsed by zod, its answers and
 * its refusals, on D1 through drizzle's query builder.
 */
import { eq, sql } from 'drizzle-orm'
import { type Request as MiniflareRequest, Response as MiniflareResponse } from 'miniflare'
import { describe, expect, it } from 'vitest'
import { checkouts } from '../../db/schema.js'
import { reservePayment } from '../../src/data/payment-reserve.js'
import { applyOutcome } from '../../src/data/payment-transitions.js'
import { plainOrder } from '../../src/domain/order.js'
import { DOH_URL } from '../../src/runtime/worker/resolve-host.js'
import { useWorker, WORKER_ADMIN_TOKEN } from './support.js'

/** The names the stand-in DNS-over-HTTPS resolver knows, and the IPv4 address each answers. */
const ZONE: Record<string, string> = {
  'hooks.example.dz': '93.184.215.14',
  'intranet.example.dz': '10.20.30.40',
}
const dohQuestions: string[] = []

/** The Worker's fetches, answered here (no network): the resolver's JSON answers, nothing else. */
function resolverOnly(request: MiniflareRequest): MiniflareResponse {
  const url = new URL(request.url)
  if (`${url.origin}${url.pathname}` !== DOH_URL)
    return new MiniflareResponse(null, { status: 502 })
  const name = url.searchParams.get('name') ?? ''
  const type = url.searchParams.get('type')
  dohQuestions.push(`${name} ${type} ${request.headers.get('accept')}`)
  const address = ZONE[name]
  if (!address) return MiniflareResponse.json({ Status: 3 })
  const answer = type === 'A' ? [{ name, type: 1, TTL: 60, data: address }] : []
  return MiniflareResponse.json({ Status: 0, Answer: answer })
}

const worker = useWorker(
  {
    GATEWAY_MODE: 'sandbox',
    GATEWAY_SITE_URL: 'https://gateway.invalid',
    MERCHANT_ACCOUNT: 'GCAZI7YBLIDJWIVEL7ETNAZGPP3LC24NO6KAOBWZHUERXQ7M5BC52DLV',
  },
  'production',
  resolverOnly,
)

const api = (path: string, init: RequestInit = {}) =>
  fetch(`${worker().url}/api/v1${path}`, {
    ...init,
    headers: { 'x-api-key': WORKER_ADMIN_TOKEN, 'content-type': 'application/json' },
  })
const send = (method: string, path: string, body: unknown) =>
  api(path, { method, body: JSON.stringify(body) })

describe('the merchant API on the deployed Worker', () => {
  it('creates, reads, lists, updates and deletes a link', async () => {
    const created = await send('POST', '/links', {
      title: '  Cours de piano ',
      amount: 1299.5,
      language: 'fr',
      expires_at: '2099-06-30T23:59:00+01:00',
      success_url: 'https://shop.example.dz/merci',
    })
    expect(created.status).toBe(201)
    const link = (await created.json()) as Record<string, unknown>
    expect(link).toMatchObject({
      title: 'Cours de piano',
      amount: 1299.5,
      language: 'fr',
      expires_at: '2099-06-30T22:59:00.000Z',
      status: 'active',
    })

    const read = await api(`/links/${link.id}`)
    expect(await read.json()).toEqual(link)
    const list = (await (await api('/links?limit=1')).json()) as { data: { id: string }[] }
    expect(list.data.map((l) => l.id)).toEqual([link.id])

    const updated = await send('PATCH', `/links/${link.id}`, { amount: 50, memo: '' })
    expect(updated.status).toBe(200)
    expect(await updated.json()).toMatchObject({ amount: 50, memo: null })

    expect((await api(`/links/${link.id}`, { method: 'DELETE' })).status).toBeLessThan(300)
  })

  it('refuses bad bodies and queries with a 400 naming each field, and keeps nothing', async () => {
    const before = (await (await api('/links')).json()) as { data: unknown[] }
    const bad = await send('POST', '/links', {
      title: '',
      amount: 10.001,
      language: 'de',
      success_url: 'ftp://x',
      surprise: true,
    })
    expect(bad.status).toBe(400)
    const text = await bad.text()
    for (const field of ['title', 'amount', 'language', 'success_url'])
      expect(text).toContain(field)
    const after = (await (await api('/links')).json()) as { data: unknown[] }
    expect(after.data).toHaveLength(before.data.length)

    for (const query of ['limit=0', 'limit=x', 'status=nope', 'cursor=%%%', 'paid=maybe'])
      expect((await api(`/payments?${query}`)).status, query).toBe(400)
    expect((await api('/payments?limit=5&status=paid,failed')).status).toBe(200)
  })

  it('makes one link of 20 identical creates with one Idempotency-Key fired at once, on D1', async () => {
    const title = 'Commande D1-5150'
    const create = () =>
      fetch(`${worker().url}/api/v1/links`, {
        method: 'POST',
        headers: {
          'x-api-key': WORKER_ADMIN_TOKEN,
          'content-type': 'application/json',
          'idempotency-key': 'd1-burst-5150',
        },
        body: JSON.stringify({ title, amount: 4200 }),
      }).then(async (res) => ({
        status: res.status,
        replayed: res.headers.get('idempotent-replayed'),
        body: (await res.json()) as { id?: string; error?: { code: string } },
      }))
    const answers = await Promise.all(Array.from({ length: 20 }, create))
    const created = answers.filter((a) => a.status === 201)
    expect(created.filter((a) => a.replayed === null)).toHaveLength(1)
    for (const a of answers)
      if (a.status !== 201) expect(a.body.error?.code).toBe('idempotency_key_in_use')
    const ids = new Set(created.map((a) => a.body.id))
    expect(ids.size).toBe(1)
    const listed = (await (await api(`/links?q=${encodeURIComponent(title)}`)).json()) as {
      data: { id: string }[]
    }
    expect(listed.data.map((l) => l.id)).toEqual([...ids])
    const again = await create()
    expect([again.status, again.replayed, again.body.id]).toEqual([201, 'true', [...ids][0]])
  })

  it('keeps products on D1: a SKU unique whatever its case, stock null or 0, a sold one never deleted', async () => {
    const created = await send('POST', '/products', {
      name: 'Tajine en terre cuite',
      price: 2500.5,
      stock: 0,
      sku: 'D1-TAJ',
    })
    expect(created.status).toBe(201)
    const product = (await created.json()) as { id: string }
    expect(product).toMatchObject({ price: 2500.5, stock: 0, sku: 'D1-TAJ', image_url: null })
    const other = (await (
      await send('POST', '/products', { name: 'Séance', price: 800 })
    ).json()) as { id: string; stock: null }
    expect(other.stock).toBeNull()
    // The unique index on lower(sku) refuses the INSERT and the UPDATE alike.
    const twin = await send('POST', '/products', { name: 'x', price: 1, sku: 'd1-taj' })
    expect([twin.status, ((await twin.json()) as { error: { code: string } }).error.code]).toEqual([
      409,
      'sku_in_use',
    ])
    const renamed = await send('PATCH', `/products/${other.id}`, { sku: 'D1-taj' })
    expect(renamed.status).toBe(409)
    const listed = (await (await api('/products?q=d1-t')).json()) as { data: { id: string }[] }
    expect(listed.data.map((x) => x.id)).toEqual([product.id])
    await worker().db.run(sql`UPDATE products SET sold_count = 1 WHERE id = ${product.id}`)
    const refused = await api(`/products/${product.id}`, { method: 'DELETE' })
    expect(refused.status).toBe(409)
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('product_sold')
    expect((await api(`/products/${other.id}`, { method: 'DELETE' })).status).toBe(204)
    expect((await api(`/products/${product.id}`)).status).toBe(200)
  })

  it('keeps promo codes on D1: unique whatever its case, a redemption held by the INSERT, released by the triggers', async () => {
    const created = await send('POST', '/promo-codes', {
      code: 'D1-Once',
      amount_off: 100,
      max_redemptions: 1,
    })
    expect(created.status).toBe(201)
    const code = (await created.json()) as { id: string }
    const twin = await send('POST', '/promo-codes', { code: 'd1-once', percent_off: 5 })
    expect(twin.status).toBe(409)
    const other = (await (
      await send('POST', '/promo-codes', { code: 'D1-Other', percent_off: 5 })
    ).json()) as { id: string }
    expect((await send('PATCH', `/promo-codes/${other.id}`, { code: 'D1-ONCE' })).status).toBe(409)
    const link = (await (
      await send('POST', '/links', { title: 'D1', amount: 1500, allow_promo_codes: true })
    ).json()) as { id: string }
    const db = worker().db
    const reserve = () =>
      reservePayment(
        db,
        {
          linkId: link.id,
          amount: 140_000,
          customerName: 'Amina Benali',
          customerPhone: '0550123456',
          customerEmail: 'amina@example.dz',
          language: 'fr',
          order: {
            ...plainOrder(150_000),
            discount: 10_000,
            promoCode: 'D1-Once',
            promoCodeId: code.id,
          },
        },
        Date.now(),
      )
    const first = await reserve()
    expect(first.ok).toBe(true)
    expect(await reserve()).toEqual({ ok: false, reason: 'promo_unavailable' })
    if (!first.ok) throw new Error('refused')
    await applyOutcome(db, first.payment.id, 'failed', {}, Date.now(), 'webhook')
    expect((await reserve()).ok).toBe(true)
  })

  it('creates a checkout, reads it back, lists it by reference and expires it, on D1', async () => {
    const created = await send('POST', '/checkouts', {
      line_items: [{ name: 'Tajine', quantity: 2, unit_price: 1299.5 }],
      reference: 'CMD-D1-7',
      metadata: { cart: 'c_9' },
      customer: { email: 'Amina@Example.DZ' },
      success_url: 'https://shop.example.dz/merci',
      language: 'ar',
    })
    expect(created.status).toBe(201)
    const checkout = (await created.json()) as Record<string, unknown>
    expect(created.headers.get('location')).toBe(`${worker().url}/api/v1/checkouts/${checkout.id}`)
    expect(checkout).toMatchObject({
      status: 'open',
      amount: 2599,
      line_items: [{ name: 'Tajine', quantity: 2, unit_price: 1299.5, amount: 2599 }],
      metadata: { cart: 'c_9' },
      customer: { name: null, phone: null, email: 'amina@example.dz' },
      language: 'ar',
    })
    expect(String(checkout.url)).toMatch(new RegExp(`^${worker().url}/l/[0-9A-Za-z]+$`))
    expect(await (await api(`/checkouts/${checkout.id}`)).json()).toEqual(checkout)
    const byRef = (await (await api('/checkouts?reference=CMD-D1-7')).json()) as {
      data: unknown[]
    }
    expect(byRef.data).toEqual([checkout])

    const expired = await api(`/checkouts/${checkout.id}/expire`, { method: 'POST' })
    expect(expired.status).toBe(200)
    expect(await expired.json()).toEqual({ ...checkout, status: 'expired' })
    const again = await api(`/checkouts/${checkout.id}/expire`, { method: 'POST' })
    expect(again.status).toBe(409)
    expect(((await again.json()) as { error: { code: string } }).error.code).toBe(
      'checkout_not_open',
    )
    const page = await fetch(String(checkout.url))
    expect(await page.text()).not.toContain('name="csrf"')

    // The Cron trigger runs the reconciler, which expires a checkout past its time.
    const due = (await (
      await send('POST', '/checkouts', { amount: 900, success_url: 'https://shop.example.dz/ok' })
    ).json()) as { id: string }
    await worker()
      .db.update(checkouts)
      .set({ expiresAt: Date.now() - 1000 })
      .where(eq(checkouts.id, due.id))
    await worker().cron()
    expect(await (await api(`/checkouts/${due.id}`)).json()).toMatchObject({ status: 'expired' })
  })

  it('creates a webhook endpoint and refuses a bad one', async () => {
    const created = await send('POST', '/webhook-endpoints', {
      url: 'https://hooks.example.dz/paylinks',
      event_types: ['payment.paid'],
    })
    expect(created.status).toBe(201)
    const endpoint = (await created.json()) as { id: string; secret: string }
    expect(endpoint.secret).toMatch(/^whsec_/)
    const deliveries = await api(`/webhook-endpoints/${endpoint.id}/deliveries?limit=10`)
    expect(deliveries.status).toBe(200)
    expect((await api(`/webhook-endpoints/${endpoint.id}/deliveries?limit=1000`)).status).toBe(400)

    const bad = await send('POST', '/webhook-endpoints', { url: '', event_types: [] })
    expect(bad.status).toBe(400)
    const text = await bad.text()
    expect(text).toContain('url')
    expect(text).toContain('event_types')
  })

  it('resolves an endpoint name over DNS over HTTPS and refuses a private or unknown one', async () => {
    dohQuestions.length = 0
    const inward = await send('POST', '/webhook-endpoints', {
      url: 'https://intranet.example.dz/paylinks',
      event_types: ['payment.paid'],
    })
    expect(inward.status).toBe(400)
    expect(await inward.text()).toContain('private, loopback or link-local address')
    expect(dohQuestions.sort()).toEqual([
      'intranet.example.dz A application/dns-json',
      'intranet.example.dz AAAA application/dns-json',
    ])
    const unknown = await send('POST', '/webhook-endpoints', {
      url: 'https://nowhere.example.dz/paylinks',
      event_types: ['payment.paid'],
    })
    expect(unknown.status).toBe(400)
    expect(await unknown.text()).toContain('does not resolve')
  })
})
