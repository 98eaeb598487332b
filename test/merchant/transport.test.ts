/**
 * The SDK's requests, retries and errors, against a stub `fetch` that records each request and
 * answers what the test says: faults Paylinks cannot be made to produce on demand (a 503, a
 * time-out, a 429 with a given Retry-After), and the routes of product.md's catalogue, promo codes,
 * refunds, checkouts and payments not by card, which this server does not serve yet (their shapes
 * are checked against the server in sdk.test.ts once it does).
 */
import { afterEach, describe, expect, it, vi } from 'vitest'
import {
  defaultRetryDelay,
  type FetchFunction,
  Paylinks,
  PaylinksConnectionError,
  PaylinksError,
  PaylinksRateLimitError,
  PaylinksTimeoutError,
} from '../../src/merchant/index.js'
import { parseRetryAfter } from '../../src/merchant/transport.js'

type Seen = { method: string; url: URL; headers: Record<string, string>; body: unknown }

/** A stub fetch answering each request with the next of `answers` (the last one repeats). */
function stub(...answers: (Response | Error | (() => Response))[]) {
  const seen: Seen[] = []
  const fetch: FetchFunction = async (url, init) => {
    seen.push({
      method: init.method,
      url: new URL(url),
      headers: init.headers,
      body: init.body === undefined ? undefined : JSON.parse(init.body),
    })
    const next = answers.length > 1 ? answers.shift()! : answers[0]!
    if (next instanceof Error) throw next
    return typeof next === 'function' ? next() : next.clone()
  }
  return { fetch, seen }
}

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', ...headers },
  })
const problem = (status: number, code: string, headers: Record<string, string> = {}) =>
  json(status, { error: { code, message: `${code} happened` } }, headers)

const delays: [number, number | null][] = []
const client = (
  fetch: FetchFunction,
  extra: Partial<ConstructorParameters<typeof Paylinks>[0]> = {},
) =>
  new Paylinks({
    url: 'https://pay.example.dz/',
    apiKey: 'pl_live_abc',
    fetch,
    retryDelay: (attempt, retryAfter) => {
      delays.push([attempt, retryAfter])
      return 0
    },
    ...extra,
  })

afterEach(() => {
  delays.length = 0
  vi.useRealTimers()
})

describe('requests', () => {
  it('sends the key, JSON, and an Idempotency-Key on writes only', async () => {
    const { fetch, seen } = stub(json(200, { data: [], has_more: false, next_cursor: null }))
    const paylinks = client(fetch)
    await paylinks.payments
      .list({ status: ['paid', 'pending'], link_id: 'lnk_1', limit: 10 })
      .page()
    await paylinks.links.create({ title: 'T', amount: 100 }).catch(() => {})
    await paylinks.links.update('a/b', { active: false }).catch(() => {})
    await paylinks.links.del('lnk_9')
    const [list, create, update, del] = seen
    expect(list!.url.href).toBe(
      'https://pay.example.dz/api/v1/payments?status=paid%2Cpending&link_id=lnk_1&limit=10',
    )
    expect(list!.headers).toEqual({
      authorization: 'Bearer pl_live_abc',
      accept: 'application/json',
    })
    expect(create!.headers['content-type']).toBe('application/json')
    expect(create!.body).toEqual({ title: 'T', amount: 100 })
    expect(update!.url.pathname).toBe('/api/v1/links/a%2Fb')
    expect(del!.method).toBe('DELETE')
    const keys = [create, update, del].map((s) => s!.headers['idempotency-key'])
    expect(new Set(keys).size).toBe(3)
    for (const key of keys) expect(key).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-/)
  })

  it('refuses a client without an http(s) url or a key', () => {
    expect(() => new Paylinks({ url: 'pay.example.dz', apiKey: 'k' })).toThrow(/url/)
    expect(() => new Paylinks({ url: 'https://pay.example.dz', apiKey: '' })).toThrow(/apiKey/)
  })
})

describe('retries', () => {
  it('retries a 503, a connection error and 409 idempotency_key_in_use under the same key, then answers', async () => {
    const { fetch, seen } = stub(
      problem(503, 'internal'),
      new TypeError('fetch failed'),
      problem(409, 'idempotency_key_in_use'),
      json(201, { id: 'lnk_1' }),
    )
    const link = await client(fetch, { maxRetries: 3 }).links.create({ title: 'T' })
    expect(link).toEqual({ id: 'lnk_1' })
    expect(seen).toHaveLength(4)
    expect(new Set(seen.map((s) => s.headers['idempotency-key'])).size).toBe(1)
    expect(delays).toEqual([
      [1, null],
      [2, null],
      [3, null],
    ])
  })

  it('retries a 409 that says when to ask again (Retry-After), as an expire while a payment is under way', async () => {
    const { fetch, seen } = stub(
      problem(409, 'checkout_payment_in_progress', { 'retry-after': '3' }),
      json(200, { id: 'chk_1', status: 'expired' }),
    )
    expect(await client(fetch).checkouts.expire('chk_1')).toEqual({
      id: 'chk_1',
      status: 'expired',
    })
    expect(seen).toHaveLength(2)
    expect(delays).toEqual([[1, 3000]])
  })

  it("keeps the caller's own Idempotency-Key across retries", async () => {
    const { fetch, seen } = stub(problem(502, 'gateway_error'), json(201, { id: 'lnk_2' }))
    await client(fetch).links.create({ title: 'T' }, { idempotencyKey: 'order-1042' })
    expect(seen.map((s) => s.headers['idempotency-key'])).toEqual(['order-1042', 'order-1042'])
  })

  it("waits the 429's Retry-After, and gives up after maxRetries with a typed error", async () => {
    const { fetch, seen } = stub(problem(429, 'rate_limited', { 'retry-after': '2' }))
    const error = await client(fetch, { maxRetries: 2 })
      .links.list()
      .page()
      .catch((e: unknown) => e)
    expect(error).toBeInstanceOf(PaylinksRateLimitError)
    expect(error).toMatchObject({ status: 429, code: 'rate_limited', retryAfterMs: 2000 })
    expect(seen).toHaveLength(3)
    expect(delays).toEqual([
      [1, 2000],
      [2, 2000],
    ])
  })

  it('does not retry what a retry cannot mend: 400, 404, 409 other than in use, 422', async () => {
    for (const [status, code] of [
      [400, 'invalid_body'],
      [404, 'not_found'],
      [409, 'link_has_payments'],
      [422, 'idempotency_key_reused'],
    ] as const) {
      const { fetch, seen } = stub(problem(status, code))
      await expect(client(fetch).links.del('lnk_1')).rejects.toMatchObject({ status, code })
      expect(seen).toHaveLength(1)
    }
    expect(delays).toEqual([])
  })

  it('times out an attempt that gets no answer, and retries it', async () => {
    vi.useFakeTimers()
    let calls = 0
    const fetch: FetchFunction = (_url, init) => {
      calls++
      return new Promise((_resolve, reject) => {
        init.signal.addEventListener('abort', () =>
          reject(new DOMException('aborted', 'AbortError')),
        )
      })
    }
    const pending = client(fetch, { timeoutMs: 1000, maxRetries: 1 })
      .links.retrieve('lnk_1')
      .catch((e: unknown) => e)
    await vi.advanceTimersByTimeAsync(1000)
    expect(calls).toBe(2)
    await vi.advanceTimersByTimeAsync(1000)
    const error = await pending
    expect(error).toBeInstanceOf(PaylinksTimeoutError)
    expect(error).toMatchObject({ kind: 'timeout', code: 'timeout', status: null })
  })

  it("stops at the caller's abort without retrying", async () => {
    const controller = new AbortController()
    const { fetch, seen } = stub(new TypeError('fetch failed'))
    controller.abort()
    const error = await client(fetch)
      .links.retrieve('lnk_1', { signal: controller.signal })
      .catch((e: unknown) => e)
    expect(error).toBeInstanceOf(PaylinksConnectionError)
    expect(error).toMatchObject({ code: 'aborted' })
    expect(seen).toHaveLength(0)
  })

  it("stops waiting for a retry at the caller's abort", async () => {
    const controller = new AbortController()
    const { fetch, seen } = stub(problem(503, 'internal'))
    let waiting = false
    const paylinks = client(fetch, {
      retryDelay: () => {
        waiting = true
        return 60_000
      },
    })
    const pending = paylinks.links
      .retrieve('lnk_1', { signal: controller.signal })
      .catch((e: unknown) => e)
    await expect.poll(() => waiting).toBe(true)
    controller.abort()
    const error = await pending
    expect(error).toBeInstanceOf(PaylinksConnectionError)
    expect(error).toMatchObject({ code: 'aborted' })
    expect(seen).toHaveLength(1)
  })

  it('backs off exponentially with jitter, or as long as Retry-After says', () => {
    for (let attempt = 1; attempt <= 6; attempt++) {
      const base = Math.min(500 * 2 ** (attempt - 1), 8000)
      const delay = defaultRetryDelay(attempt, null)
      expect(delay).toBeGreaterThanOrEqual(base / 2)
      expect(delay).toBeLessThanOrEqual(base)
    }
    expect(defaultRetryDelay(1, 7000)).toBe(7000)
    const now = Date.parse('2026-11-28T12:00:00Z')
    expect(parseRetryAfter('120', now)).toBe(120_000)
    expect(parseRetryAfter('Sat, 28 Nov 2026 12:00:30 GMT', now)).toBe(30_000)
    expect(parseRetryAfter('soon', now)).toBeNull()
    expect(parseRetryAfter(null, now)).toBeNull()
  })

  it('reads an answer that is not the error object as a PaylinksError with the status', async () => {
    const { fetch } = stub(new Response('<html>Bad gateway</html>', { status: 502 }))
    const error = await client(fetch, { maxRetries: 0 })
      .links.retrieve('x')
      .catch((e: unknown) => e)
    expect(error).toBeInstanceOf(PaylinksError)
    expect(error).toMatchObject({ status: 502, code: 'http_502', kind: 'api', fields: {} })
  })
})

describe('routes of product.md this server does not serve yet, against a stub', () => {
  it('checkouts: create, list by status and reference, retrieve, expire', async () => {
    const { fetch, seen } = stub(
      json(200, { id: 'chk_1', data: [], has_more: false, next_cursor: null }),
    )
    const paylinks = client(fetch)
    await paylinks.checkouts.create(
      {
        line_items: [{ name: 'Tajine', quantity: 2, unit_price: 1800 }],
        reference: 'order-77',
        success_url: 'https://shop.example.dz/thanks',
        metadata: { cart: '77' },
      },
      { idempotencyKey: 'order-77' },
    )
    await paylinks.checkouts.list({ status: 'open', reference: 'order-77' }).page()
    await paylinks.checkouts.retrieve('chk_1')
    await paylinks.checkouts.expire('chk_1')
    expect(seen.map((s) => `${s.method} ${s.url.pathname}${s.url.search}`)).toEqual([
      'POST /api/v1/checkouts',
      'GET /api/v1/checkouts?status=open&reference=order-77',
      'GET /api/v1/checkouts/chk_1',
      'POST /api/v1/checkouts/chk_1/expire',
    ])
    expect(seen[0]!.headers['idempotency-key']).toBe('order-77')
    expect(seen[3]!.headers['idempotency-key']).toBeTruthy()
  })

  it('products, promo codes, refunds and payments not by card', async () => {
    const { fetch, seen } = stub(json(200, { data: [], has_more: false, next_cursor: null }))
    const paylinks = client(fetch)
    await paylinks.products.create({ name: 'Tapis', price: 12000, stock: 3 })
    await paylinks.products.list({ active: true }).page()
    await paylinks.products.retrieve('prod_1')
    await paylinks.products.update('prod_1', { stock: null })
    await paylinks.products.del('prod_1')
    await paylinks.promoCodes.create({ code: 'AID10', percent_off: 10 })
    await paylinks.promoCodes.list().page()
    await paylinks.promoCodes.retrieve('promo_1')
    await paylinks.promoCodes.update('promo_1', { active: false })
    await paylinks.refunds.create('pay_1', { amount: 500, method: 'cash', reason: 'broken' })
    await paylinks.refunds.list({ payment_id: 'pay_1' }).page()
    await paylinks.payments.create({ method: 'cash', amount: 2500, ref: 'till-3' })
    expect(seen.map((s) => `${s.method} ${s.url.pathname}${s.url.search}`)).toEqual([
      'POST /api/v1/products',
      'GET /api/v1/products?active=true',
      'GET /api/v1/products/prod_1',
      'PATCH /api/v1/products/prod_1',
      'DELETE /api/v1/products/prod_1',
      'POST /api/v1/promo-codes',
      'GET /api/v1/promo-codes',
      'GET /api/v1/promo-codes/promo_1',
      'PATCH /api/v1/promo-codes/promo_1',
      'POST /api/v1/payments/pay_1/refunds',
      'GET /api/v1/refunds?payment_id=pay_1',
      'POST /api/v1/payments',
    ])
    expect(seen[3]!.body).toEqual({ stock: null })
    expect(seen.filter((s) => s.method !== 'GET').every((s) => s.headers['idempotency-key'])).toBe(
      true,
    )
  })
})
