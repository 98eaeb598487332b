/**
 * The merchant SDK (`paylinks/merchant`, src/merchant/) against Paylinks itself: the app and the
 * simulator over loopback HTTP on a real SQLite file, the SDK calling them with the platform's
 * fetch. Links made, read, listed page by page, changed and deleted; payments walked over several
 * pages; a write whose answer is lost retried under the same Idempotency-Key (one link); the
 * API's refusals as typed errors; a real outbound delivery verified by the SDK.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  type FetchFunction,
  Paylinks,
  PaylinksAuthError,
  PaylinksConflictError,
  PaylinksError,
  PaylinksNotFoundError,
  PaylinksValidationError,
} from '../../src/merchant/index.js'
import { rowCount } from '../api/helpers.js'
import { startPayment } from '../flows/support.js'
import { startReceiver } from '../outbound-webhooks/receiver.js'
import { type Paylinks as Harness, startPaylinks, TEST_ADMIN_TOKEN } from '../support/harness.js'

let p: Harness
let paylinks: Paylinks
beforeAll(async () => {
  p = await startPaylinks({ http: true })
  paylinks = new Paylinks({ url: p.url, apiKey: TEST_ADMIN_TOKEN, retryDelay: () => 0 })
})
afterAll(() => p.close())

/** Pays `count` payments on a new link through the checkout and the simulator; their ids. */
async function paidPayments(count: number, outcome: 'approved' | 'declined' = 'approved') {
  const link = await paylinks.links.create({ title: `Panier ${outcome}`, amount: 1200 })
  const ids: string[] = []
  for (let i = 0; i < count; i++) {
    const { tx, payment } = await startPayment(p, link.slug, { ref: `order-${i}` })
    await p.simulator.completePayment(tx.cibTransactionId, outcome)
    await p.settle()
    ids.push(payment.id)
  }
  return { link, ids }
}

describe('links through the SDK', () => {
  it('creates, reads, lists page by page, changes and deletes a link', async () => {
    const made = await Promise.all(
      ['Tapis', 'Théière', 'Couscoussier'].map((title, i) =>
        paylinks.links.create({ title, amount: 1000 + i * 250.5, metadata: { sku: `S-${i}` } }),
      ),
    )
    expect(made.map((l) => [l.amount, l.metadata])).toEqual([
      [1000, { sku: 'S-0' }],
      [1250.5, { sku: 'S-1' }],
      [1501, { sku: 'S-2' }],
    ])
    const read = await paylinks.links.retrieve(made[1]!.id)
    expect(read).toEqual(made[1])

    // One page at a time, then every page by `for await` (pages of two: two requests at least).
    const first = await paylinks.links.list({ limit: 2 }).page()
    expect(first.data).toHaveLength(2)
    expect(first.has_more).toBe(true)
    const walked: string[] = []
    for await (const link of paylinks.links.list({ limit: 2 })) walked.push(link.id)
    expect(walked).toEqual(expect.arrayContaining(made.map((l) => l.id)))
    expect(new Set(walked).size).toBe(walked.length)
    const second = await paylinks.links.list({ limit: 2, cursor: first.next_cursor! }).page()
    expect(second.data[0]?.id).toBe(walked[2])

    const changed = await paylinks.links.update(made[0]!.id, {
      active: false,
      metadata: { sku: '', colour: 'rouge' },
    })
    expect([changed.active, changed.metadata]).toEqual([false, { colour: 'rouge' }])
    expect((await paylinks.links.list({ active: false }).toArray()).map((l) => l.id)).toContain(
      made[0]!.id,
    )

    await paylinks.links.del(made[2]!.id)
    const gone = await paylinks.links.retrieve(made[2]!.id).catch((e: unknown) => e)
    expect(gone).toBeInstanceOf(PaylinksNotFoundError)
    expect(gone).toMatchObject({ status: 404, code: 'not_found', kind: 'not_found' })
  })

  it('retries a create whose answer was lost under the same Idempotency-Key: the server replays it, one link is made', async () => {
    const sent: { key: string | undefined; replayed: string | null }[] = []
    let dropped = false
    // The platform's fetch, but the first POST's answer is thrown away after the server made the
    // link, as a connection cut on the way back would.
    const losing: FetchFunction = async (url, init) => {
      const res = await fetch(url, init)
      if (init.method !== 'POST') return res
      sent.push({
        key: init.headers['idempotency-key'],
        replayed: res.headers.get('idempotent-replayed'),
      })
      const text = await res.text()
      if (!dropped) {
        dropped = true
        throw new TypeError('fetch failed: the connection was reset')
      }
      return new Response(text, { status: res.status, headers: res.headers })
    }
    const sdk = new Paylinks({
      url: p.url,
      apiKey: TEST_ADMIN_TOKEN,
      fetch: losing,
      retryDelay: () => 0,
    })
    const before = rowCount(p, 'links')
    const link = await sdk.links.create({ title: 'Commande 7731', amount: 4300 })
    expect(rowCount(p, 'links')).toBe(before + 1)
    expect(sent).toHaveLength(2)
    expect(sent[0]!.key).toMatch(/^[0-9a-f-]{36}$/)
    expect(sent[1]).toEqual({ key: sent[0]!.key, replayed: 'true' })
    expect(await paylinks.links.retrieve(link.id)).toMatchObject({ title: 'Commande 7731' })

    // The caller's own key: the same order sent twice is one link.
    const again = await paylinks.links.create(
      { title: 'Commande 7732', amount: 700 },
      { idempotencyKey: 'order-7732' },
    )
    const twice = await paylinks.links.create(
      { title: 'Commande 7732', amount: 700 },
      { idempotencyKey: 'order-7732' },
    )
    expect(twice.id).toBe(again.id)
    expect(rowCount(p, 'links')).toBe(before + 2)
  })

  it('turns refusals into typed errors carrying code and fields', async () => {
    const invalid = await paylinks.links
      .create({ title: '', amount: -5, language: 'de' as 'fr' })
      .catch((e: unknown) => e)
    expect(invalid).toBeInstanceOf(PaylinksValidationError)
    expect(invalid).toBeInstanceOf(PaylinksError)
    const error = invalid as PaylinksValidationError
    expect([error.status, error.code, error.kind]).toEqual([400, 'invalid_body', 'validation'])
    expect(Object.keys(error.fields).sort()).toEqual(['amount', 'language', 'title'])
    expect(error.message).toMatch(/invalid fields/)
    expect(error.requestId).toBeTruthy()

    // The same key with another body: 422, not retried.
    await paylinks.links.create({ title: 'Un', amount: 500 }, { idempotencyKey: 'reused-1' })
    const reused = await paylinks.links
      .create({ title: 'Deux', amount: 600 }, { idempotencyKey: 'reused-1' })
      .catch((e: unknown) => e)
    expect(reused).toBeInstanceOf(PaylinksValidationError)
    expect(reused).toMatchObject({ status: 422, code: 'idempotency_key_reused' })

    const wrongKey = new Paylinks({ url: p.url, apiKey: 'pl_live_not_a_key', maxRetries: 0 })
    const refused = await wrongKey.links
      .list()
      .page()
      .catch((e: unknown) => e)
    expect(refused).toBeInstanceOf(PaylinksAuthError)
    expect(refused).toMatchObject({ status: 401, code: 'unauthorized', kind: 'auth' })

    const { link } = await paidPayments(1)
    const kept = await paylinks.links.del(link.id).catch((e: unknown) => e)
    expect(kept).toBeInstanceOf(PaylinksConflictError)
    expect(kept).toMatchObject({ status: 409, code: 'link_has_payments' })
  })
})

describe('payments through the SDK', () => {
  it('walks every page of a filtered list with for await', async () => {
    const paid = await paidPayments(5)
    await paidPayments(1, 'declined')
    const pages: number[] = []
    for await (const page of paylinks.payments
      .list({ status: 'paid', link_id: paid.link.id, limit: 2 })
      .pages())
      pages.push(page.data.length)
    expect(pages).toEqual([2, 2, 1])
    const ids: string[] = []
    for await (const payment of paylinks.payments.list({ status: 'paid', limit: 2 })) {
      expect(payment.status).toBe('paid')
      ids.push(payment.id)
    }
    expect(ids).toEqual(expect.arrayContaining(paid.ids))
    expect(new Set(ids).size).toBe(ids.length)
    const failed = await paylinks.payments.list({ status: ['failed', 'error'] }).toArray()
    expect(failed.map((x) => x.status)).toEqual(['failed'])
    const one = await paylinks.payments.retrieve(paid.ids[0]!)
    expect(one).toMatchObject({
      id: paid.ids[0],
      link_id: paid.link.id,
      ref: 'order-0',
      currency: 'DZD',
    })
    const bad = await paylinks.payments
      .list({ from: 'yesterday' })
      .page()
      .catch((e: unknown) => e)
    expect(bad).toMatchObject({
      status: 400,
      code: 'invalid_query',
      fields: { from: expect.any(String) },
    })
  })
})

describe('webhook endpoints and events through the SDK', () => {
  it('registers an endpoint and verifies the event Paylinks delivers to it', async () => {
    const receiver = await startReceiver()
    try {
      const endpoint = await paylinks.webhookEndpoints.create({
        url: receiver.url,
        event_types: ['payment.paid'],
      })
      expect(endpoint.secret).toMatch(/^whsec_/)
      expect((await paylinks.webhookEndpoints.list()).data.map((e) => e.id)).toContain(endpoint.id)
      const { ids } = await paidPayments(1)
      await p.deps.outbound.run()
      await expect.poll(() => receiver.received.length).toBe(1)
      const delivery = receiver.received[0]!
      const event = await Paylinks.webhooks.verify(delivery.body, delivery.headers, endpoint.secret)
      expect(event.type).toBe('payment.paid')
      expect(event.data).toMatchObject({ id: ids[0], status: 'paid' })
      const deliveries = await paylinks.webhookEndpoints.listDeliveries(endpoint.id).toArray()
      expect(deliveries.map((d) => [d.id, d.type])).toEqual([
        [delivery.headers['webhook-id'], 'payment.paid'],
      ])
      // Another secret does not verify it.
      const rotated = await paylinks.webhookEndpoints.rotateSecret(endpoint.id)
      await expect(
        paylinks.webhooks.verify(delivery.body, delivery.headers, rotated.secret),
      ).rejects.toMatchObject({ kind: 'webhook', code: 'invalid_signature' })
      const off = await paylinks.webhookEndpoints.update(endpoint.id, { enabled: false })
      expect(off.enabled).toBe(false)
      await paylinks.webhookEndpoints.del(endpoint.id)
      await expect(paylinks.webhookEndpoints.retrieve(endpoint.id)).rejects.toBeInstanceOf(
        PaylinksNotFoundError,
      )
    } finally {
      await receiver.close()
    }
  })
})
