/**
 * A storm of webhook deliveries becomes a handful of checks: per payment at most one check at a
 * time plus one follow-up, a few at once in all, none for a payment already paid — and every
 * delivery still ends in the inbox as processed, every payment in its true state.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { webhookEvents } from '../../db/schema.js'
import { signGatewayMessage } from '../../src/client/index.js'
import { getPaymentById } from '../../src/data/payments.js'
import { type Paylinks, startPaylinks } from '../support/harness.js'
import { makeLink } from '../support/links.js'
import { startPayment } from './support.js'

let p: Paylinks
let checks: number
let running: number
let mostAtOnce: number

beforeEach(async () => {
  p = await startPaylinks()
  p.simulator.faults.set({ webhooks: { never: true } })
  // Count the check calls on the real client (they still reach the simulator).
  const card = p.deps.gateway.card
  const check = card.check.bind(card)
  checks = 0
  running = 0
  mostAtOnce = 0
  card.check = async (...args: Parameters<typeof check>) => {
    checks++
    mostAtOnce = Math.max(mostAtOnce, ++running)
    try {
      return await check(...args)
    } finally {
      running--
    }
  }
})
afterEach(async () => {
  await p.close()
})

/**
 * Distinct signed events for the payment, as the gateway could send them: its own event, then
 * others whose `message` it signed too (the inbox keys a delivery by its signed pair, so a change
 * of an unsigned field alone would be the same event again).
 */
async function deliveries(cibTransactionId: string, count: number): Promise<string[]> {
  const dropped = [...p.simulator.state.deliveries.values()].find(
    (d) => d.cibTransactionId === cibTransactionId,
  )
  if (!dropped) throw new Error('no delivery')
  const payload = dropped.payload as Record<string, unknown>
  const bodies = [JSON.stringify(payload)]
  for (let i = 1; i < count; i++) {
    const message = `${payload.message}/${i}`
    const signature = await signGatewayMessage(message, p.simulator.keys.privateKeyPem)
    bodies.push(JSON.stringify({ ...payload, message, signature }))
  }
  return bodies
}

function post(body: string) {
  return p.app.request('/webhooks/gateway', {
    method: 'POST',
    body,
    headers: { 'content-type': 'application/json' },
  })
}

async function approvedPayment(title: string, customer = 1) {
  const link = await makeLink(p, { title, amount: 1000 })
  // Each its own customer address: the checkout allows ten a minute per address.
  const started = await startPayment(p, link.slug, {}, { 'x-test-ip': `10.0.0.${customer}` })
  await p.simulator.completePayment(started.tx.cibTransactionId, 'approved')
  return started
}

describe('webhook deliveries and checks', () => {
  it('turns 60 simultaneous deliveries for one payment into at most two checks', async () => {
    const { tx, payment } = await approvedPayment('Storm')
    const answers = await Promise.all((await deliveries(tx.cibTransactionId, 60)).map(post))
    expect(answers.map((r) => r.status)).toEqual(Array(60).fill(200))
    await p.settle()
    expect((await getPaymentById(p.deps.db, payment.id))?.status).toBe('paid')
    expect(checks).toBeGreaterThanOrEqual(1)
    expect(checks).toBeLessThanOrEqual(2)
    const events = await p.deps.db.select().from(webhookEvents)
    expect(events).toHaveLength(60)
    expect(events.every((e) => e.status === 'processed' && e.paymentId === payment.id)).toBe(true)
  })

  it('runs at most eight checks at once for many payments, and settles them all', async () => {
    const started = []
    for (let i = 0; i < 24; i++) started.push(await approvedPayment(`Many ${i}`, i))
    const bodies = []
    for (const { tx } of started) bodies.push(...(await deliveries(tx.cibTransactionId, 2)))
    const answers = await Promise.all(bodies.map(post))
    expect(answers.every((r) => r.status === 200)).toBe(true)
    await p.settle()
    expect(mostAtOnce).toBeGreaterThan(1)
    expect(mostAtOnce).toBeLessThanOrEqual(8)
    for (const { payment } of started)
      expect((await getPaymentById(p.deps.db, payment.id))?.status).toBe('paid')
  })

  it('records a delivery for a payment already paid as processed, without a check', async () => {
    const { tx, payment } = await approvedPayment('Already paid')
    const [first, second] = (await deliveries(tx.cibTransactionId, 2)) as [string, string]
    expect((await post(first)).status).toBe(200)
    await p.settle()
    expect((await getPaymentById(p.deps.db, payment.id))?.status).toBe('paid')
    const before = checks
    const res = await post(second)
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ received: true })
    await p.settle()
    expect(checks).toBe(before)
    const events = await p.deps.db.select().from(webhookEvents)
    expect(events.map((e) => [e.status, e.attempts, e.paymentId])).toEqual([
      ['processed', 1, payment.id],
      ['processed', 1, payment.id],
    ])
  })
})
