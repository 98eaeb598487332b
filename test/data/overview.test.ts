/**
 * The overview's figures against payments made at known times, on a real SQLite file: Algiers
 * days (UTC+1) cut at Algiers midnight, money at paid_at, outcomes at created_at, the failure rate
 * and its reasons, the links that collected most, the payments in flight.
 */
import { eq } from 'drizzle-orm'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { type FailureCode, type Link, type PaymentStatus, payments } from '../../db/schema.js'
import { getOverview, lastDays, overviewWindow } from '../../src/data/overview.js'
import { storePayment } from '../dashboard/helpers.js'
import { type Paylinks, startPaylinks } from '../support/harness.js'
import { storeLink } from '../support/links.js'

const HOUR = 3_600_000
const DAY = 24 * HOUR
// 2026-01-15 11:00 in Algiers; that Algiers day began at 2026-01-14 23:00 UTC.
const NOW = Date.UTC(2026, 0, 15, 10, 0, 0)
const MIDNIGHT = Date.UTC(2026, 0, 14, 23, 0, 0)

let p: Paylinks
let link: Link

beforeEach(async () => {
  p = await startPaylinks({ clock: () => NOW })
  link = await storeLink(p, { title: 'Atelier' }, NOW - 60 * DAY)
})
afterEach(() => p.close())

/** A payment started at `created`, in `status`, paid at `paid` when given (else at `created`). */
async function pay(options: {
  created: number
  status?: PaymentStatus
  paid?: number
  amount?: number
  code?: FailureCode | null
  on?: Link
}) {
  const status = options.status ?? 'paid'
  const payment = await storePayment(p, options.on ?? link, {
    at: options.created,
    status,
    amount: options.amount ?? 10_000,
  })
  await p.deps.db
    .update(payments)
    .set({
      paidAt: status === 'paid' ? (options.paid ?? options.created) : null,
      failureCode: options.code ?? null,
    })
    .where(eq(payments.id, payment.id))
}

describe('the window', () => {
  it('is the 30 Algiers days up to today, starting at an Algiers midnight', () => {
    const w = overviewWindow(NOW)
    expect(w.dates).toHaveLength(30)
    expect(w.dates.at(-1)).toBe('2026-01-15')
    expect(w.dates[0]).toBe('2025-12-17')
    expect(w.start).toBe(MIDNIGHT - 29 * DAY)
    expect(w.end).toBe(MIDNIGHT + DAY)
    // 00:30 in Algiers is still the 15th there though it is the 14th in UTC.
    expect(overviewWindow(MIDNIGHT + HOUR / 2).dates.at(-1)).toBe('2026-01-15')
    expect(overviewWindow(MIDNIGHT - 1).dates.at(-1)).toBe('2026-01-14')
  })
})

describe('money collected', () => {
  it('counts each payment on the Algiers day it was paid, cut at Algiers midnight', async () => {
    await pay({ created: MIDNIGHT - 1, amount: 100 }) // 23:59:59.999 yesterday
    await pay({ created: MIDNIGHT, amount: 200 }) // 00:00 today
    await pay({ created: NOW, amount: 400 })
    await pay({ created: MIDNIGHT - 6 * DAY, amount: 800 }) // first day of the last 7
    await pay({ created: MIDNIGHT - 6 * DAY - 1, amount: 1_600 }) // the day before it
    await pay({ created: MIDNIGHT - 29 * DAY, amount: 3_200 }) // first day of the 30
    await pay({ created: MIDNIGHT - 29 * DAY - 1, amount: 6_400 }) // outside
    await pay({ created: NOW, amount: 12_800, status: 'failed' })
    await pay({ created: NOW, amount: 25_600, status: 'pending' })
    const o = await getOverview(p.deps.db, NOW)
    expect(lastDays(o, 1)).toEqual({ collected: 600, paid: 2 })
    expect(lastDays(o, 7)).toEqual({ collected: 1_500, paid: 4 })
    expect(lastDays(o, 30)).toEqual({ collected: 6_300, paid: 6 })
    expect(o.days.at(-2)).toMatchObject({ date: '2026-01-14', collected: 100, paidCount: 1 })
    expect(o.days[0]).toMatchObject({ date: '2025-12-17', collected: 3_200, paidCount: 1 })
  })

  it('counts money at paid_at and the outcome at created_at for a payment paid the next day', async () => {
    await pay({ created: MIDNIGHT - HOUR, paid: MIDNIGHT + HOUR, amount: 5_000 })
    const o = await getOverview(p.deps.db, NOW)
    expect(o.days.at(-1)).toMatchObject({
      collected: 5_000,
      paidCount: 1,
      outcomes: { paid: 0, failed: 0, other: 0 },
    })
    expect(o.days.at(-2)).toMatchObject({
      collected: 0,
      paidCount: 0,
      outcomes: { paid: 1, failed: 0, other: 0 },
    })
  })
})

describe('outcomes, failure rate and reasons', () => {
  it('sorts each day into paid, failed and other, and rates unsuccessful over settled', async () => {
    await pay({ created: NOW, status: 'paid' })
    await pay({ created: NOW, status: 'paid' })
    await pay({ created: NOW, status: 'failed', code: 'insufficient_funds' })
    await pay({ created: NOW - DAY, status: 'failed', code: 'insufficient_funds' })
    await pay({ created: NOW - DAY, status: 'canceled', code: 'canceled_by_customer' })
    await pay({ created: NOW - DAY, status: 'expired', code: null })
    await pay({ created: NOW - DAY, status: 'error', code: 'gateway_error' })
    // In flight: "other" on the chart, but neither settled nor unsuccessful.
    await pay({ created: NOW, status: 'pending' })
    await pay({ created: NOW, status: 'initiated' })
    // Older than the window: not counted.
    await pay({ created: MIDNIGHT - 40 * DAY, status: 'failed', code: 'declined' })
    const o = await getOverview(p.deps.db, NOW)
    expect(o.days.at(-1)?.outcomes).toEqual({ paid: 2, failed: 1, other: 2 })
    expect(o.days.at(-2)?.outcomes).toEqual({ paid: 0, failed: 1, other: 3 })
    expect(o.settled).toBe(7)
    expect(o.unsuccessful).toBe(5)
    expect(o.reasons).toEqual([
      { code: 'insufficient_funds', count: 2 },
      { code: null, count: 1 },
      { code: 'canceled_by_customer', count: 1 },
      { code: 'gateway_error', count: 1 },
    ])
    expect(o.pending).toBe(1)
    expect(o.initiated).toBe(1)
  })

  it('counts payments in flight whatever their age', async () => {
    await pay({ created: MIDNIGHT - 90 * DAY, status: 'pending' })
    const o = await getOverview(p.deps.db, NOW)
    expect(o.pending).toBe(1)
    expect(o.settled).toBe(0)
  })
})

describe('top links', () => {
  it('ranks links by money collected over 30 days, not by count, with their titles', async () => {
    const many = await storeLink(p, { title: 'Petits' }, NOW - 60 * DAY)
    const big = await storeLink(p, { title: 'Gros' }, NOW - 60 * DAY)
    for (let i = 0; i < 3; i++) await pay({ created: NOW - i * DAY, amount: 1_000, on: many })
    await pay({ created: NOW, amount: 50_000, on: big })
    // Collected long ago, or not collected: no weight.
    await pay({ created: MIDNIGHT - 31 * DAY, amount: 9_000_000, on: link })
    await pay({ created: NOW, amount: 9_000_000, on: link, status: 'failed' })
    for (let i = 0; i < 5; i++) {
      const other = await storeLink(p, { title: `L${i}` }, NOW - 60 * DAY)
      await pay({ created: NOW, amount: 100 + i, on: other })
    }
    const o = await getOverview(p.deps.db, NOW)
    expect(o.topLinks).toEqual([
      { id: big.id, title: 'Gros', paidCount: 1, collected: 50_000 },
      { id: many.id, title: 'Petits', paidCount: 3, collected: 3_000 },
      expect.objectContaining({ title: 'L4', collected: 104 }),
      expect.objectContaining({ title: 'L3', collected: 103 }),
      expect.objectContaining({ title: 'L2', collected: 102 }),
    ])
  })
})

describe('nothing', () => {
  it('gives 30 empty days and no figures on an empty database', async () => {
    const o = await getOverview(p.deps.db, NOW)
    expect(o.days).toHaveLength(30)
    expect(o.days.every((d) => d.collected === 0 && d.outcomes.paid === 0)).toBe(true)
    expect(o).toMatchObject({ settled: 0, unsuccessful: 0, reasons: [], topLinks: [], pending: 0 })
  })
})
