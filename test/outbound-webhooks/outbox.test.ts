/**
 * The outbox is written by the statement that changes a payment: one delivery per enabled,
 * subscribed endpoint and final status; none for a write that changes nothing; link.completed
 * when the link's paid payments reach its max_payments; a mail row per paid payment when mail is
 * on. Nothing is sent here: the rows exist after the payment's write alone.
 */
import { asc } from 'drizzle-orm'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { deliveries, settings } from '../../db/schema.js'
import { applyOutcome, markPending, reservePayment } from '../../src/data/payments.js'
import { createEndpoint, updateEndpoint } from '../../src/outbound-webhooks/endpoints.js'
import { listDue } from '../../src/outbox/deliveries.js'
import { openTestDb, paymentRequest, T0, type TestDb } from '../data/helpers.js'
import { storeLink } from '../support/links.js'

let t: TestDb
beforeEach(() => {
  t = openTestDb()
})
afterEach(() => t.cleanup())

const ids = (n: number) => ({
  transactionId: `tx_${n}`,
  cibTransactionId: `CIB00000000${n}`,
  paymentUrl: `https://pay.example/${n}`,
  gatewayResponse: {},
})

async function pendingPayment(linkOverrides = {}, n = 1) {
  const link = await storeLink(t.db, { amount: 150000, ...linkOverrides })
  const r = await reservePayment(t.db, paymentRequest(link), T0)
  if (!r.ok) throw new Error('not reserved')
  await markPending(t.db, r.payment.id, ids(n), T0 + 1)
  return { link, payment: r.payment }
}

const rows = () => t.db.select().from(deliveries).orderBy(asc(deliveries.id))
const endpoint = (
  eventTypes: Parameters<typeof createEndpoint>[1]['eventTypes'],
  url = 'https://hooks.example/a',
) => createEndpoint(t.db, { url, description: null, eventTypes, enabled: true }, T0)

describe('the outbox triggers', () => {
  it('writes one delivery per subscribed enabled endpoint for a final status, in the payment write itself', async () => {
    const all = await endpoint(['payment.paid', 'payment.failed'])
    await endpoint(['payment.failed'], 'https://hooks.example/b')
    const off = await endpoint(['payment.paid'], 'https://hooks.example/c')
    await updateEndpoint(t.db, off.id, { enabled: false }, T0)
    const { payment } = await pendingPayment()
    expect(await rows()).toEqual([])
    expect((await applyOutcome(t.db, payment.id, 'paid', {}, T0 + 5, 'webhook')).changed).toBe(true)
    const written = await rows()
    expect(written).toHaveLength(1)
    expect(written[0]).toMatchObject({
      channel: 'webhook',
      endpointId: all.id,
      type: 'payment.paid',
      paymentId: payment.id,
      state: 'pending',
      attempts: 0,
      nextAttemptAt: T0 + 5,
      occurredAt: T0 + 5,
      payload: null,
    })
    expect(written[0]?.eventId).toMatch(/^msg_[0-9a-f]{32}$/)
    // The same outcome again changes nothing and invents nothing.
    expect((await applyOutcome(t.db, payment.id, 'paid', {}, T0 + 6, 'return')).changed).toBe(false)
    expect(await rows()).toHaveLength(1)
  })

  it('announces a decline, then a late paid, as two deliveries in that order', async () => {
    await endpoint(['payment.paid', 'payment.failed'])
    const { payment } = await pendingPayment()
    await applyOutcome(t.db, payment.id, 'failed', {}, T0 + 5, 'webhook')
    await applyOutcome(t.db, payment.id, 'paid', {}, T0 + 9, 'reconciler')
    expect((await rows()).map((r) => r.type)).toEqual(['payment.failed', 'payment.paid'])
    // Only the first is due: the second waits for it.
    const due = await listDue(t.db, 'webhook', T0 + 10, 10)
    expect(due.map((r) => r.type)).toEqual(['payment.failed'])
  })

  it('writes nothing for pending, nor for endpoints not subscribed to the status', async () => {
    await endpoint(['payment.paid'])
    const { payment } = await pendingPayment()
    await applyOutcome(t.db, payment.id, 'canceled', {}, T0 + 5, 'webhook')
    expect(await rows()).toEqual([])
  })

  it('writes link.completed after payment.paid when the paid payments reach max_payments', async () => {
    const ep = await endpoint(['payment.paid', 'link.completed'])
    const { link, payment } = await pendingPayment({ maxPayments: 1 })
    await applyOutcome(t.db, payment.id, 'paid', {}, T0 + 5, 'webhook')
    const written = await rows()
    expect(written.map((r) => [r.type, r.paymentId, r.linkId, r.endpointId])).toEqual([
      ['payment.paid', payment.id, link.id, ep.id],
      ['link.completed', payment.id, link.id, ep.id],
    ])
    expect(written[1]?.occurredAt).toBe(T0 + 5)
  })

  it('writes a mail row per paid payment only when mail is on', async () => {
    const first = await pendingPayment({}, 1)
    await applyOutcome(t.db, first.payment.id, 'paid', {}, T0 + 5, 'webhook')
    expect(await rows()).toEqual([])
    await t.db.insert(settings).values({ key: 'mail_outbox', value: 'on', createdAt: T0 })
    const second = await pendingPayment({}, 2)
    await applyOutcome(t.db, second.payment.id, 'paid', {}, T0 + 6, 'webhook')
    expect((await rows()).map((r) => [r.channel, r.type, r.paymentId, r.endpointId])).toEqual([
      ['mail', 'payment.paid', second.payment.id, null],
    ])
  })
})
