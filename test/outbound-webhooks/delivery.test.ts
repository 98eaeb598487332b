/**
 * Outbound webhooks end to end: payments paid, declined, canceled and expired through the real
 * checkout and the in-process simulator reach a real receiver on loopback once per transition,
 * signed so that the reference library verifies them; a receiver that fails and recovers gets
 * everything, in order, the same bytes under the same id; rotation signs with both secrets.
 * The clock is the test's: retries fall due by moving it, not by waiting.
 */
import { asc, eq } from 'drizzle-orm'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import {
  deliveries,
  deliveryAttempts,
  type OutboundEventType,
  webhookEndpoints,
} from '../../db/schema.js'
import { updateLink } from '../../src/data/links.js'
import {
  createEndpoint,
  FAILING_AFTER,
  getEndpoint,
  ROTATION_OVERLAP_MS,
  rotateSecret,
} from '../../src/outbound-webhooks/endpoints.js'
import { MAX_ATTEMPTS, RETRY_DELAYS_MS } from '../../src/outbox/schedule.js'
import { reconcile } from '../../src/payments/reconcile.js'
import { startPayment } from '../flows/support.js'
import { type Paylinks, startPaylinks, TEST_ADMIN_TOKEN } from '../support/harness.js'
import { makeLink } from '../support/links.js'
import { T0 } from '../support/manual-time.js'
import { type Receiver, startReceiver, typesOf, verify } from './receiver.js'

let now = T0
let p: Paylinks
let receiver: Receiver
beforeEach(async () => {
  now = T0
  receiver = await startReceiver()
  p = await startPaylinks({ clock: () => now })
})
afterEach(async () => {
  await p.close()
  await receiver.close()
})

const ALL = [
  'payment.paid',
  'payment.failed',
  'payment.canceled',
  'payment.expired',
  'link.completed',
] as const

const register = (eventTypes: OutboundEventType[] = [...ALL]) =>
  createEndpoint(
    p.deps.db,
    { url: receiver.url, description: 'orders', eventTypes, enabled: true },
    now,
  )

/** Moves the test's clock and sends what fell due, as the timer or Cron trigger would. */
async function advance(ms: number) {
  now += ms
  await p.deps.outbound.run()
}

type CheckoutEvent = {
  type: string
  timestamp: string
  data: { id: string; status: string; payment: { id: string } | null } & Record<string, unknown>
}

type Event = {
  type: string
  timestamp: string
  data: { id: string; status: string; ref: unknown; checkout_id: unknown; metadata: unknown }
}

describe('outbound webhooks', () => {
  it('delivers each payment outcome once, verified by the reference library', async () => {
    const endpoint = await register()
    const link = await makeLink(p, {
      title: 'Commande',
      amount: 2500,
      language: 'fr',
      metadata: { order_id: '1042' },
    })
    const outcomes = [
      ['approved', 'payment.paid', 'paid'],
      ['declined', 'payment.failed', 'failed'],
      ['canceled', 'payment.canceled', 'canceled'],
      ['session_expired', 'payment.expired', 'expired'],
    ] as const
    const ids: string[] = []
    for (const [outcome] of outcomes) {
      const { tx, payment } = await startPayment(p, link.slug, { ref: `order-${outcome}` })
      // The link's metadata changes after the first payment started: that payment keeps its own.
      if (ids.length === 0) await updateLink(p.deps.db, link.id, { metadata: { shop: 'web' } }, now)
      await p.simulator.completePayment(tx.cibTransactionId, outcome)
      await p.settle()
      ids.push(payment.id)
    }
    // Everything already heard again (the reconciler, the settle of late deliveries): nothing new.
    await advance(60_000)
    await p.settle()
    expect(receiver.received).toHaveLength(4)
    const events = receiver.received.map((r) => verify(endpoint.secret, r, now) as Event)
    expect(events.map((e) => [e.type, e.data.id, e.data.status])).toEqual(
      outcomes.map(([, type, status], i) => [type, ids[i], status]),
    )
    expect(events[0]?.data.ref).toBe('order-approved')
    // Every payment event's payment carries its checkout (none yet), reference and metadata.
    expect(events.map((e) => [e.data.checkout_id, e.data.ref, e.data.metadata])).toEqual([
      [null, 'order-approved', { order_id: '1042' }],
      [null, 'order-declined', { order_id: '1042', shop: 'web' }],
      [null, 'order-canceled', { order_id: '1042', shop: 'web' }],
      [null, 'order-session_expired', { order_id: '1042', shop: 'web' }],
    ])
    expect(events[0]).toMatchObject({ data: { link: { id: link.id, title: 'Commande' } } })
    for (const r of receiver.received) {
      expect(r.headers['webhook-id']).toMatch(/^msg_/)
      expect(r.headers['content-type']).toBe('application/json')
    }
    expect(new Set(receiver.received.map((r) => r.headers['webhook-id'])).size).toBe(4)
  })

  it('delivers a paid checkout as payment.paid then checkout.completed, and an expired one as checkout.expired', async () => {
    const endpoint = await register(['payment.paid', 'checkout.completed', 'checkout.expired'])
    const create = async (body: Record<string, unknown>) => {
      const res = await p.app.request('/api/v1/checkouts', {
        method: 'POST',
        headers: { 'x-api-key': TEST_ADMIN_TOKEN, 'content-type': 'application/json' },
        body: JSON.stringify({ success_url: 'https://shop.example.dz/merci', ...body }),
      })
      expect(res.status).toBe(201)
      return (await res.json()) as { id: string; url: string }
    }
    const order = await create({
      line_items: [{ name: 'Tajine', quantity: 2, unit_price: 1250 }],
      reference: 'CMD-1042',
      metadata: { cart: 'c_77' },
    })
    const slug = new URL(order.url).pathname.split('/').pop()!
    const { tx, payment } = await startPayment(p, slug)
    await p.simulator.completePayment(tx.cibTransactionId, 'approved')
    await p.settle()
    const idle = await create({ amount: 900, expires_in: 300 })
    now += 300_000
    await reconcile(p.deps)
    await advance(0)
    await p.settle()

    const events = receiver.received.map((r) => verify(endpoint.secret, r, now) as CheckoutEvent)
    expect(events.map((e) => [e.type, e.data.id])).toEqual([
      ['payment.paid', payment.id],
      ['checkout.completed', order.id],
      ['checkout.expired', idle.id],
    ])
    const [paid, completed, expired] = events
    // The payment's event names its checkout, carries the shop's reference and metadata.
    expect(paid?.data).toMatchObject({
      checkout_id: order.id,
      ref: 'CMD-1042',
      metadata: { cart: 'c_77' },
    })
    // The checkout's event is the checkout as the API answers it, with its payment.
    const read = await p.app.request(`/api/v1/checkouts/${order.id}`, {
      headers: { 'x-api-key': TEST_ADMIN_TOKEN },
    })
    const { payment: paidPayment, ...checkout } = completed!.data
    expect(checkout).toEqual(await read.json())
    expect(checkout).toMatchObject({ status: 'completed', payment_id: payment.id, amount: 2500 })
    expect(paidPayment).toMatchObject({ id: payment.id, status: 'paid', checkout_id: order.id })
    expect(expired?.data).toMatchObject({ id: idle.id, status: 'expired', payment: null })
    expect(completed?.timestamp).toBe(paid?.timestamp)
  })

  it('retries a failing receiver on the schedule, marks the endpoint failing, and delivers in order once it recovers', async () => {
    const endpoint = await register(['payment.paid', 'link.completed'])
    const link = await makeLink(p, {
      title: 'Unique',
      amount: 900,
      language: 'en',
      max_payments: 1,
    })
    receiver.answer(500)
    const { tx } = await startPayment(p, link.slug)
    await p.simulator.completePayment(tx.cibTransactionId, 'approved')
    await p.settle()
    // The first attempt went at once; link.completed waits behind payment.paid.
    expect(typesOf(receiver.received)).toEqual(['payment.paid'])
    for (const delay of RETRY_DELAYS_MS.slice(0, FAILING_AFTER - 1)) {
      const before = receiver.received.length
      // Nothing is due a millisecond early; the retry goes when it is.
      await advance(delay - 1)
      expect(receiver.received).toHaveLength(before)
      await advance(1)
      expect(receiver.received).toHaveLength(before + 1)
    }
    expect(receiver.received).toHaveLength(FAILING_AFTER)
    expect((await getEndpoint(p.deps.db, endpoint.id))?.failingSince).toBe(now)
    receiver.answer(200)
    await advance(RETRY_DELAYS_MS[FAILING_AFTER - 1]!)
    expect(typesOf(receiver.received)).toEqual([
      ...new Array(FAILING_AFTER + 1).fill('payment.paid'),
      'link.completed',
    ])
    // Same id and bytes on every attempt of one event; each verifies.
    const paid = receiver.received.slice(0, FAILING_AFTER + 1)
    expect(new Set(paid.map((r) => r.headers['webhook-id'])).size).toBe(1)
    expect(new Set(paid.map((r) => r.body)).size).toBe(1)
    for (const r of receiver.received)
      verify(endpoint.secret, r, Number(r.headers['webhook-timestamp']) * 1000)
    const healed = await getEndpoint(p.deps.db, endpoint.id)
    expect([healed?.consecutiveFailures, healed?.failingSince]).toEqual([0, null])
    const attempts = await p.deps.db
      .select()
      .from(deliveryAttempts)
      .orderBy(asc(deliveryAttempts.id))
    expect(attempts.map((a) => a.status)).toEqual([...new Array(FAILING_AFTER).fill(500), 200, 200])
    expect(attempts[0]?.responseExcerpt).toBe('receiver is down')
  })

  it('gives an event up after the last attempt, about three days on, and sends the next one then', async () => {
    await register(['payment.paid', 'link.completed'])
    const span = RETRY_DELAYS_MS.reduce((a, b) => a + b, 0)
    expect(span).toBeGreaterThan(2.5 * 86_400_000)
    expect(span).toBeLessThan(3.5 * 86_400_000)
    const link = await makeLink(p, {
      title: 'Unique',
      amount: 900,
      language: 'en',
      max_payments: 1,
    })
    receiver.answer(503)
    const { tx } = await startPayment(p, link.slug)
    await p.simulator.completePayment(tx.cibTransactionId, 'approved')
    await p.settle()
    for (const delay of RETRY_DELAYS_MS) await advance(delay)
    // Every attempt went to payment.paid; link.completed waited behind it all along.
    expect(typesOf(receiver.received)).toEqual(new Array(MAX_ATTEMPTS).fill('payment.paid'))
    const [paid] = await p.deps.db
      .select()
      .from(deliveries)
      .where(eq(deliveries.type, 'payment.paid'))
    expect([paid?.state, paid?.attempts]).toEqual(['failed', MAX_ATTEMPTS])
    // Given up, it holds nothing back: the next run sends link.completed.
    receiver.answer(200)
    await advance(1)
    expect(typesOf(receiver.received).slice(MAX_ATTEMPTS)).toEqual(['link.completed'])
  })

  it('signs with both secrets during a rotation, and with the new one alone after it', async () => {
    const endpoint = await register(['payment.paid'])
    const link = await makeLink(p, { title: 'Commande', amount: 2500, language: 'fr' })
    const rotated = await rotateSecret(p.deps.db, endpoint.id, now)
    expect(rotated?.secret).toMatch(/^whsec_/)
    expect(rotated?.secret).not.toBe(endpoint.secret)
    const pay = async () => {
      const { tx } = await startPayment(p, link.slug)
      await p.simulator.completePayment(tx.cibTransactionId, 'approved')
      await p.settle()
      return receiver.received.at(-1)!
    }
    const during = await pay()
    expect(String(during.headers['webhook-signature']).split(' ')).toHaveLength(2)
    verify(endpoint.secret, during, now)
    verify(rotated!.secret, during, now)
    now += ROTATION_OVERLAP_MS + 1
    const after = await pay()
    expect(String(after.headers['webhook-signature']).split(' ')).toHaveLength(1)
    verify(rotated!.secret, after, now)
    expect(() => verify(endpoint.secret, after, now)).toThrow(/No matching signature/)
  })

  it('keeps a disabled endpoint’s deliveries waiting and writes none for it afterwards', async () => {
    const endpoint = await register(['payment.paid'])
    const link = await makeLink(p, { title: 'Commande', amount: 2500, language: 'fr' })
    await p.deps.db
      .update(webhookEndpoints)
      .set({ enabled: false })
      .where(eq(webhookEndpoints.id, endpoint.id))
    const { tx } = await startPayment(p, link.slug)
    await p.simulator.completePayment(tx.cibTransactionId, 'approved')
    await p.settle()
    expect(receiver.received).toEqual([])
    expect(await p.deps.db.select().from(deliveries)).toEqual([])
  })
})
