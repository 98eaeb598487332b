/**
 * A signed webhook that claims an outcome the check endpoint does not show yet: the gateway's
 * check has been seen to lag behind its webhook by seconds. The payment is checked again within
 * seconds (not at the reconciler's first minute), and redeliveries cost one check every few
 * seconds at most. Time is the test's: an injected clock and timers that fire when it moves.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createBackground } from '../../src/background.js'
import { getPaymentById } from '../../src/data/payments.js'
import { silentLogger } from '../../src/log.js'
import { type Paylinks, startPaylinks } from '../support/harness.js'
import { makeLink } from '../support/links.js'
import { type ManualTime, manualTime } from '../support/manual-time.js'
import { startPayment } from './support.js'
import { countChecks, postWebhook, signedEvent } from './webhook-support.js'

let p: Paylinks
let time: ManualTime
let checks: { readonly count: number }
beforeEach(async () => {
  time = manualTime(Date.UTC(2025, 0, 15, 10))
  p = await startPaylinks({ clock: time.clock })
  p.deps.background = createBackground(silentLogger, undefined, time.setTimer)
  p.simulator.faults.set({ webhooks: { never: true } })
  checks = countChecks(p)
})
afterEach(async () => {
  await p.close()
})

/** Moves time on and waits for what it set off. */
async function elapse(ms: number) {
  time.advance(ms)
  await p.settle()
}

async function pendingPayment() {
  const link = await makeLink(p, { title: 'Lagging check', amount: 1000 })
  return startPayment(p, link.slug)
}

const status = async (id: string) => (await getPaymentById(p.deps.db, id))?.status

describe('a webhook ahead of the check endpoint', () => {
  it('settles the payment seconds after the gateway approves it, without the reconciler', async () => {
    const { tx, payment } = await pendingPayment()
    // The gateway signs "success" while its check endpoint still answers "not paid".
    expect((await postWebhook(p, await signedEvent(p, tx, 'success'))).status).toBe(200)
    await p.settle()
    expect(checks.count).toBe(1)
    const waiting = await getPaymentById(p.deps.db, payment.id)
    expect(waiting?.status).toBe('pending')
    // The reconciler would look again only a minute later.
    expect(waiting?.nextCheckAt).toBeGreaterThanOrEqual(time.clock() + 60_000)
    await elapse(2_000)
    expect(checks.count).toBe(2)
    expect(await status(payment.id)).toBe('pending')
    await elapse(1_000)
    await p.simulator.completePayment(tx.cibTransactionId, 'approved')
    await elapse(2_000)
    expect(checks.count).toBe(3)
    expect(await status(payment.id)).toBe('paid')
    // Settled: the schedule stops.
    expect(time.pending()).toBe(0)
    await elapse(60_000)
    expect(checks.count).toBe(3)
  })

  it('re-checks 2, 5, 10 and 20 s after the webhook, then leaves the payment to the reconciler', async () => {
    const { tx, payment } = await pendingPayment()
    await postWebhook(p, await signedEvent(p, tx, 'success'))
    await p.settle()
    const seen: number[] = []
    for (let s = 1; s <= 30; s++) {
      await elapse(1_000)
      seen.push(checks.count)
    }
    // Checks counted at the end of each second: the first webhook's, then one at 2, 5, 10, 20 s.
    expect(seen[1]).toBe(2)
    expect(seen[4]).toBe(3)
    expect(seen[9]).toBe(4)
    expect(seen[19]).toBe(5)
    expect(seen[29]).toBe(5)
    expect(time.pending()).toBe(0)
    expect(await status(payment.id)).toBe('pending')
  })

  it('turns redeliveries arriving within a second into one check', async () => {
    const { tx, payment } = await pendingPayment()
    const body = JSON.stringify(await signedEvent(p, tx, 'success'))
    expect((await postWebhook(p, body)).status).toBe(200)
    await p.settle()
    expect(checks.count).toBe(1)
    for (let i = 0; i < 20; i++) {
      await elapse(50)
      const res = await postWebhook(p, body)
      expect(await res.json()).toEqual({ received: true, duplicate: true })
    }
    await p.settle()
    expect(checks.count).toBe(1)
    // Once the short schedule is over, a redelivery asks for a check again — one per burst.
    for (let s = 0; s < 25; s++) await elapse(1_000)
    expect(checks.count).toBe(5)
    for (let i = 0; i < 20; i++) {
      await elapse(50)
      await postWebhook(p, body)
    }
    await p.settle()
    expect(checks.count).toBe(6)
    expect(await status(payment.id)).toBe('pending')
  })
})
