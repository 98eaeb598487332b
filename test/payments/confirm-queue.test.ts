/**
 * The confirmation queue on its own (src/payments/confirm-queue.ts): per payment one check at a
 * time plus one shared follow-up, at most `concurrency` checks in all, the redelivery interval,
 * the short re-check schedule, failures logged by the background, and a stop that drops what is
 * not yet due. Real SQLite file, the real simulator in process, time moved by hand.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { getPaymentById } from '../../src/data/payments.js'
import {
  REDELIVERY_CHECK_INTERVAL_MS,
  WEBHOOK_RECHECK_DELAYS_MS,
} from '../../src/domain/check-schedule.js'
import { openPaymentCore, type PaymentCore, until } from './support.js'

let core: PaymentCore

beforeEach(() => {
  core = openPaymentCore()
})
afterEach(() => {
  core.close()
})

async function approved(customer = 1) {
  const payment = await core.pay(await core.link(), customer)
  await core.simulator.completePayment(payment.cibTransactionId!, 'approved')
  return payment
}

describe('confirm', () => {
  it('runs one check per payment at a time; requests meanwhile share one follow-up', async () => {
    const payment = await core.pay(await core.link())
    core.holdChecks()
    const first = core.confirmations.confirm(core.deps, payment.id)
    await until(() => core.held() === 1, 'the first check at the gateway')
    const later = Array.from({ length: 5 }, () => core.confirmations.confirm(core.deps, payment.id))
    // Five more requests while the first runs: none reaches the gateway yet.
    for (let i = 0; i < 20; i++) await new Promise<void>((resolve) => setImmediate(resolve))
    expect(core.checks()).toBe(1)
    core.release()
    expect((await first).payment.status).toBe('pending')
    // Then exactly one follow-up, shared by all five, which sees what changed meanwhile.
    await until(() => core.held() === 1, 'the follow-up check')
    await core.simulator.completePayment(payment.cibTransactionId!, 'approved')
    core.release()
    const results = await Promise.all(later)
    expect(new Set(results).size).toBe(1)
    expect(results[0]).toMatchObject({ checked: true, changed: true })
    expect(results[0]?.payment.status).toBe('paid')
    expect(core.checks()).toBe(2)
  })

  it('starts a new check once the running one and its follow-up are over', async () => {
    const payment = await approved()
    const once = await core.confirmations.confirm(core.deps, payment.id)
    expect(once).toMatchObject({ changed: true, checked: true })
    expect(once.payment.status).toBe('paid')
    await core.confirmations.confirm(core.deps, payment.id)
    // A paid payment is final: the second confirmation asks nothing.
    expect(core.checks()).toBe(1)
  })

  it('runs at most eight checks at once; the ninth waits for a free place', async () => {
    const link = await core.link()
    const payments = []
    for (let i = 0; i < 10; i++) payments.push(await core.pay(link, i))
    core.holdChecks()
    const all = payments.map((p) => core.confirmations.confirm(core.deps, p.id))
    await until(() => core.held() === 8, 'eight checks at the gateway')
    for (let i = 0; i < 20; i++) await new Promise<void>((resolve) => setImmediate(resolve))
    expect(core.held()).toBe(8)
    core.release()
    await until(() => core.held() === 8 && core.checks() === 9, 'the ninth check')
    core.release(true)
    await until(() => core.checks() === 10, 'the tenth check')
    core.release(true)
    const results = await Promise.all(all)
    expect(results.map((r) => r.checked)).toEqual(Array(10).fill(true))
    expect(core.checks()).toBe(10)
  })

  it('rejects for a payment that does not exist, and frees its place for the next request', async () => {
    await expect(core.confirmations.confirm(core.deps, 'pay_missing')).rejects.toThrow(
      'No payment pay_missing',
    )
    await expect(core.confirmations.confirm(core.deps, 'pay_missing')).rejects.toThrow()
    const payment = await approved()
    expect((await core.confirmations.confirm(core.deps, payment.id)).payment.status).toBe('paid')
  })

  it('answers unchecked, logs the failure and keeps the payment when the gateway fails', async () => {
    const payment = await approved()
    core.simulator.faults.set({ endpoints: { 'cib-transaction-check': { status5xx: 503 } } })
    const result = await core.confirmations.confirm(core.deps, payment.id)
    expect(result).toMatchObject({ checked: false, changed: false })
    expect((await getPaymentById(core.deps.db, payment.id))?.status).toBe('pending')
    expect(core.lines).toContainEqual(
      expect.objectContaining({ event: 'check_failed', payment_id: payment.id }),
    )
    core.simulator.faults.clear()
    expect((await core.confirmations.confirm(core.deps, payment.id)).payment.status).toBe('paid')
  })
})

describe('confirmIfDue', () => {
  it('skips a check asked for within the interval and runs one after it', async () => {
    const payment = await core.pay(await core.link())
    await core.confirmations.confirm(core.deps, payment.id)
    core.time.advance(REDELIVERY_CHECK_INTERVAL_MS - 1)
    expect(await core.confirmations.confirmIfDue(core.deps, payment.id)).toBeNull()
    expect(core.checks()).toBe(1)
    core.time.advance(1)
    expect(await core.confirmations.confirmIfDue(core.deps, payment.id)).toMatchObject({
      checked: true,
    })
    expect(core.checks()).toBe(2)
  })
})

describe('recheckSoon', () => {
  /** Moves time to each scheduled re-check and lets it finish. */
  async function advanceTo(delayFromStart: number, start: number) {
    core.time.advance(start + delayFromStart - core.time.clock())
    await core.background.idle()
  }

  it('checks after each short delay while pending, and stops once the payment is paid', async () => {
    const payment = await core.pay(await core.link())
    const start = core.time.clock()
    core.confirmations.recheckSoon(core.deps, core.background, payment.id)
    // Asked again while its schedule runs: nothing more.
    core.confirmations.recheckSoon(core.deps, core.background, payment.id)
    const [first, second, third] = WEBHOOK_RECHECK_DELAYS_MS as [number, number, number]
    await advanceTo(first - 1, start)
    expect(core.checks()).toBe(0)
    await advanceTo(first, start)
    expect(core.checks()).toBe(1)
    await advanceTo(second, start)
    expect(core.checks()).toBe(2)
    await core.simulator.completePayment(payment.cibTransactionId!, 'approved')
    await advanceTo(third, start)
    expect(core.checks()).toBe(3)
    expect((await getPaymentById(core.deps.db, payment.id))?.status).toBe('paid')
    expect(core.time.pending()).toBe(0)
  })

  it('logs a failed re-check through the background instead of throwing, and ends the schedule', async () => {
    core.confirmations.recheckSoon(core.deps, core.background, 'pay_missing')
    await advanceTo(WEBHOOK_RECHECK_DELAYS_MS[0]!, core.time.clock())
    expect(core.lines).toContainEqual(
      expect.objectContaining({ event: 'background_failed', task: 'webhook_recheck' }),
    )
    expect(core.time.pending()).toBe(0)
  })

  it('drops re-checks not yet due at a stop, and idle waits for the check still running', async () => {
    const payment = await approved()
    core.holdChecks()
    core.background.run('webhook_confirm', () => core.confirmations.confirm(core.deps, payment.id))
    const other = await core.pay(await core.link(), 2)
    core.confirmations.recheckSoon(core.deps, core.background, other.id)
    await until(() => core.held() === 1, 'the running check')
    core.background.stop()
    let idle = false
    const drained = core.background.idle().then(() => {
      idle = true
    })
    for (let i = 0; i < 20; i++) await new Promise<void>((resolve) => setImmediate(resolve))
    expect(idle).toBe(false)
    core.release()
    await drained
    expect((await getPaymentById(core.deps.db, payment.id))?.status).toBe('paid')
    core.time.advance(WEBHOOK_RECHECK_DELAYS_MS.at(-1)! * 2)
    await core.background.idle()
    expect(core.checks()).toBe(1)
  })
})
