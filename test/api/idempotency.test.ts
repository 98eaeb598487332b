/**
 * `Idempotency-Key` on the merchant API's writes: replayed byte for byte, refused with another
 * request (422) or while the first runs (409), per credential, for 24 hours, and one object from
 * a burst of identical creates over real HTTP.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { reconcile } from '../../src/payments/reconcile.js'
import { type Paylinks, startPaylinks, TEST_ADMIN_TOKEN } from '../support/harness.js'
import { rowCount } from './helpers.js'

const LINK = { title: 'Atelier poterie', amount: 2500 }
const ITEMS_LINK = {
  title: 'Commande 1042',
  invoice_items: [{ description: 'Livre', quantity: 2, unit_price: 1299.5 }],
}

type Sent = { status: number; headers: Headers; text: string }

/** Sends a JSON write with the admin token (or `token`) and, when given, an Idempotency-Key. */
async function send(
  target: Paylinks | string,
  method: string,
  path: string,
  options: { json?: unknown; key?: string; token?: string } = {},
): Promise<Sent> {
  const headers: Record<string, string> = { 'x-api-key': options.token ?? TEST_ADMIN_TOKEN }
  if (options.key !== undefined) headers['idempotency-key'] = options.key
  if (options.json !== undefined) headers['content-type'] = 'application/json'
  const init = {
    method,
    headers,
    ...(options.json !== undefined ? { body: JSON.stringify(options.json) } : {}),
  }
  const res =
    typeof target === 'string'
      ? await fetch(`${target}${path}`, init)
      : await target.app.request(path, init)
  return { status: res.status, headers: res.headers, text: await res.text() }
}

const keyRows = (p: Paylinks) =>
  (p.sqlite.sqlite.prepare('SELECT count(*) AS n FROM idempotency_keys').get() as { n: number }).n

describe('Idempotency-Key, in process', () => {
  let p: Paylinks
  let now = Date.parse('2026-11-28T10:00:00Z')
  beforeAll(async () => {
    p = await startPaylinks({ clock: () => now })
  })
  afterAll(() => p.close())
  afterEach(() => p.simulator.faults.clear())

  it('replays the first answer byte for byte, with Idempotent-Replayed: true, and makes one link', async () => {
    const before = rowCount(p, 'links')
    const first = await send(p, 'POST', '/api/v1/links', { json: LINK, key: 'order-1001' })
    expect(first.status).toBe(201)
    expect(first.headers.get(REPLAYED)).toBeNull()
    now += 60_000
    const again = await send(p, 'POST', '/api/v1/links', { json: LINK, key: 'order-1001' })
    expect(again.status).toBe(201)
    expect(again.text).toBe(first.text)
    expect(again.headers.get('content-type')).toBe(first.headers.get('content-type'))
    expect(again.headers.get('location')).toBe(first.headers.get('location'))
    expect(again.headers.get(REPLAYED)).toBe('true')
    expect(rowCount(p, 'links')).toBe(before + 1)
  })

  it('replays a DELETE’s 204 and a 404 kept as the endpoint answered them', async () => {
    const made = JSON.parse(
      (await send(p, 'POST', '/api/v1/links', { json: LINK, key: 'make-to-delete' })).text,
    )
    const path = `/api/v1/links/${made.id}`
    const gone = await send(p, 'DELETE', path, { key: 'delete-1' })
    expect([gone.status, gone.text]).toEqual([204, ''])
    const again = await send(p, 'DELETE', path, { key: 'delete-1' })
    expect([again.status, again.text, again.headers.get(REPLAYED)]).toEqual([204, '', 'true'])
    // Without the key the same DELETE runs again: the link is gone.
    expect((await send(p, 'DELETE', path)).status).toBe(404)
    const missing = await send(p, 'PATCH', '/api/v1/links/lnk_nothere', {
      json: { amount: 10 },
      key: 'patch-missing',
    })
    expect(missing.status).toBe(404)
    const replayed = await send(p, 'PATCH', '/api/v1/links/lnk_nothere', {
      json: { amount: 10 },
      key: 'patch-missing',
    })
    expect([replayed.status, replayed.text, replayed.headers.get(REPLAYED)]).toEqual([
      404,
      missing.text,
      'true',
    ])
  })

  it('answers 422 idempotency_key_reused for the same key with another body, method or path', async () => {
    const before = rowCount(p, 'links')
    expect((await send(p, 'POST', '/api/v1/links', { json: LINK, key: 'order-2002' })).status).toBe(
      201,
    )
    const other = await send(p, 'POST', '/api/v1/links', {
      json: { ...LINK, amount: 2600 },
      key: 'order-2002',
    })
    expect(other.status).toBe(422)
    expect(JSON.parse(other.text)).toEqual({
      error: {
        code: 'idempotency_key_reused',
        message:
          'This Idempotency-Key was sent in the last 24 hours with another request (method, path or body); send a new key for a new request.',
      },
    })
    expect(other.headers.get(REPLAYED)).toBeNull()
    const otherRoute = await send(p, 'POST', '/api/v1/webhook-endpoints', {
      json: LINK,
      key: 'order-2002',
    })
    expect(JSON.parse(otherRoute.text).error.code).toBe('idempotency_key_reused')
    expect(rowCount(p, 'links')).toBe(before + 1)
  })

  it('keeps the keys of each credential apart: two API keys, one key string, two links', async () => {
    const made = async (name: string) =>
      JSON.parse(
        (await send(p, 'POST', '/api/v1/api-keys', { json: { name, scope: 'write' } })).text,
      ).key as string
    const [a, b] = [await made('shop A'), await made('shop B')]
    const before = rowCount(p, 'links')
    const fromA = await send(p, 'POST', '/api/v1/links', { json: LINK, key: 'cart-7', token: a })
    const fromB = await send(p, 'POST', '/api/v1/links', { json: LINK, key: 'cart-7', token: b })
    expect([fromA.status, fromB.status]).toEqual([201, 201])
    expect(fromB.headers.get(REPLAYED)).toBeNull()
    expect(JSON.parse(fromA.text).id).not.toBe(JSON.parse(fromB.text).id)
    expect(rowCount(p, 'links')).toBe(before + 2)
    const againA = await send(p, 'POST', '/api/v1/links', { json: LINK, key: 'cart-7', token: a })
    expect([againA.text, againA.headers.get(REPLAYED)]).toEqual([fromA.text, 'true'])
  })

  it('keeps an answer 24 hours: replayed just before, run again after, and swept by the reconciler', async () => {
    const before = rowCount(p, 'links')
    const first = await send(p, 'POST', '/api/v1/links', { json: LINK, key: 'daily' })
    now += 24 * 60 * 60_000 - 1
    const late = await send(p, 'POST', '/api/v1/links', { json: LINK, key: 'daily' })
    expect([late.text, late.headers.get(REPLAYED)]).toEqual([first.text, 'true'])
    expect(rowCount(p, 'links')).toBe(before + 1)
    now += 1
    const anew = await send(p, 'POST', '/api/v1/links', { json: LINK, key: 'daily' })
    expect(anew.status).toBe(201)
    expect(anew.headers.get(REPLAYED)).toBeNull()
    expect(JSON.parse(anew.text).id).not.toBe(JSON.parse(first.text).id)
    expect(rowCount(p, 'links')).toBe(before + 2)

    const kept = keyRows(p)
    expect(kept).toBeGreaterThan(0)
    now += 24 * 60 * 60_000 + 1
    await reconcile(p.deps)
    expect(keyRows(p)).toBe(0)
  })

  it('refuses an empty key or one over 255 characters with a 400 naming the header', async () => {
    const before = rowCount(p, 'links')
    const empty = await send(p, 'POST', '/api/v1/links', { json: LINK, key: '' })
    expect(empty.status).toBe(400)
    expect(JSON.parse(empty.text)).toEqual({
      error: {
        code: 'invalid_header',
        message: 'The header Idempotency-Key is not valid.',
        fields: { 'Idempotency-Key': 'Idempotency-Key must not be empty' },
      },
    })
    const long = await send(p, 'POST', '/api/v1/links', { json: LINK, key: 'k'.repeat(256) })
    expect(long.status).toBe(400)
    expect(JSON.parse(long.text).error.fields).toEqual({
      'Idempotency-Key': 'Idempotency-Key must be at most 255 characters',
    })
    expect(rowCount(p, 'links')).toBe(before)
    const longest = await send(p, 'POST', '/api/v1/links', { json: LINK, key: 'k'.repeat(255) })
    expect(longest.status).toBe(201)
  })

  it('keeps nothing for a request without the header, nor for a read', async () => {
    const rows = keyRows(p)
    const first = await send(p, 'POST', '/api/v1/links', { json: LINK })
    const second = await send(p, 'POST', '/api/v1/links', { json: LINK })
    expect(JSON.parse(first.text).id).not.toBe(JSON.parse(second.text).id)
    expect(second.headers.get(REPLAYED)).toBeNull()
    const read = await p.app.request('/api/v1/links', {
      headers: { 'x-api-key': TEST_ADMIN_TOKEN, 'idempotency-key': 'read-1' },
    })
    expect(read.status).toBe(200)
    expect(keyRows(p)).toBe(rows)
  })

  it('lets the key go after a refused body, so the corrected request runs under it', async () => {
    const before = rowCount(p, 'links')
    const bad = await send(p, 'POST', '/api/v1/links', {
      json: { title: 'Sans prix' },
      key: 'fix-and-retry',
    })
    expect(bad.status).toBe(400)
    const fixed = await send(p, 'POST', '/api/v1/links', { json: LINK, key: 'fix-and-retry' })
    expect(fixed.status).toBe(201)
    expect(fixed.headers.get(REPLAYED)).toBeNull()
    expect(rowCount(p, 'links')).toBe(before + 1)
  })

  it('lets the key go after a server error (the gateway failed), so the retry runs', async () => {
    const before = rowCount(p, 'links')
    p.simulator.faults.set({ endpoints: { 'invoices/create': { status5xx: 503, times: 1 } } })
    const failed = await send(p, 'POST', '/api/v1/links', { json: ITEMS_LINK, key: 'items-1' })
    expect(failed.status).toBe(502)
    const retried = await send(p, 'POST', '/api/v1/links', { json: ITEMS_LINK, key: 'items-1' })
    expect(retried.status).toBe(201)
    expect(retried.headers.get(REPLAYED)).toBeNull()
    expect(rowCount(p, 'links')).toBe(before + 1)
  })
})

const REPLAYED = 'idempotent-replayed'

describe('Idempotency-Key over loopback HTTP', () => {
  let p: Paylinks
  /** Holds the simulator's `latencyMs` waits until the test lets them go. */
  const held: (() => void)[] = []
  beforeAll(async () => {
    p = await startPaylinks({
      http: true,
      simulator: {
        sleep: (_ms, signal) =>
          new Promise<void>((resolve, reject) => {
            held.push(resolve)
            signal?.addEventListener('abort', () => reject(new Error('aborted')))
          }),
      },
    })
  })
  afterAll(() => p.close())

  it('answers 409 idempotency_key_in_use while the first request still runs, then replays it', async () => {
    p.simulator.faults.set({ endpoints: { 'invoices/create': { latencyMs: 1, times: 1 } } })
    const first = send(p.url, 'POST', '/api/v1/links', { json: ITEMS_LINK, key: 'slow-1' })
    // The first request is inside its gateway call once the simulator holds it.
    await expect.poll(() => held.length).toBe(1)
    const during = await send(p.url, 'POST', '/api/v1/links', { json: ITEMS_LINK, key: 'slow-1' })
    expect(during.status).toBe(409)
    expect(JSON.parse(during.text)).toEqual({
      error: {
        code: 'idempotency_key_in_use',
        message:
          'The first request with this Idempotency-Key is still running; retry once it has been answered.',
      },
    })
    held.shift()?.()
    const done = await first
    expect(done.status).toBe(201)
    const after = await send(p.url, 'POST', '/api/v1/links', { json: ITEMS_LINK, key: 'slow-1' })
    expect([after.status, after.text, after.headers.get(REPLAYED)]).toEqual([
      201,
      done.text,
      'true',
    ])
    expect((await p.simulator.inspect()).invoices).toHaveLength(1)
  })

  it('makes one link of 20 identical creates fired at once', async () => {
    const before = rowCount(p, 'links')
    const body = { title: 'Commande 5150', amount: 4200 }
    const answers = await Promise.all(
      Array.from({ length: 20 }, () =>
        send(p.url, 'POST', '/api/v1/links', { json: body, key: 'burst-5150' }),
      ),
    )
    expect(rowCount(p, 'links')).toBe(before + 1)
    const created = answers.filter((a) => a.status === 201)
    expect(created.filter((a) => a.headers.get(REPLAYED) === null)).toHaveLength(1)
    for (const a of answers)
      if (a.status !== 201) expect(JSON.parse(a.text).error.code).toBe('idempotency_key_in_use')
    const ids = new Set(created.map((a) => JSON.parse(a.text).id))
    expect(ids.size).toBe(1)
    const after = await send(p.url, 'POST', '/api/v1/links', { json: body, key: 'burst-5150' })
    expect(after.headers.get(REPLAYED)).toBe('true')
    expect(ids.has(JSON.parse(after.text).id)).toBe(true)
  })
})
