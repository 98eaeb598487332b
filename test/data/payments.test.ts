import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { Link } from '../../db/schema.js'
import { decodeCursor } from '../../src/data/paging.js'
import {
  applyOutcome,
  getPaymentById,
  listPayments,
  listPaymentsDueForCheck,
  markPending,
  reservePayment,
  scheduleNextCheck,
} from '../../src/data/payments.js'
import { storeLink } from '../support/links.js'
import { openTestDb, paymentRequest, T0, type TestDb } from './helpers.js'

let t: TestDb
let link: Link
beforeEach(async () => {
  t = openTestDb()
  link = await storeLink(t.db)
})
afterEach(() => t.cleanup())

async function newPayment(now: number, on = link) {
  const r = await reservePayment(t.db, paymentRequest(on), now)
  if (!r.ok) throw new Error(r.reason)
  return r.payment
}

async function pendingPayment(now: number, n: string) {
  const p = await newPayment(now)
  const r = await markPending(
    t.db,
    p.id,
    { transactionId: null, cibTransactionId: n, paymentUrl: 'https://x', gatewayResponse: null },
    now,
  )
  return r.payment!
}

describe('listPayments', () => {
  it('filters by status, link and creation time (from inclusive, to exclusive)', async () => {
    const other = await storeLink(t.db)
    const a = await newPayment(T0)
    const b = await newPayment(T0 + 1000)
    const c = await newPayment(T0 + 2000, other)
    await applyOutcome(t.db, a.id, 'paid', {}, T0 + 5000, 'webhook')
    const ids = async (filters: Parameters<typeof listPayments>[1]) =>
      (await listPayments(t.db, filters)).items.map((p) => p.id)

    expect(await ids({})).toEqual([c.id, b.id, a.id])
    expect(await ids({ status: 'paid' })).toEqual([a.id])
    expect(await ids({ status: ['paid', 'initiated'], linkId: link.id })).toEqual([b.id, a.id])
    expect(await ids({ createdFrom: T0 + 1000, createdTo: T0 + 2000 })).toEqual([b.id])
    expect(await ids({ linkId: other.id })).toEqual([c.id])
  })

  it('pages newest first by cursor and by offset, over rows created in the same millisecond', async () => {
    const made = []
    for (let i = 0; i < 5; i++) made.push(await newPayment(T0))
    const all = (await listPayments(t.db)).items.map((p) => p.id)
    expect([...all].sort().reverse()).toEqual(all)

    const seen: string[] = []
    let cursor: string | null = null
    do {
      const page = await listPayments(t.db, {
        limit: 2,
        ...(cursor ? { cursor: decodeCursor(cursor)! } : {}),
      })
      seen.push(...page.items.map((p) => p.id))
      cursor = page.nextCursor
    } while (cursor)
    expect(seen).toEqual(all)
    expect((await listPayments(t.db, { limit: 2, offset: 4 })).items.map((p) => p.id)).toEqual([
      all[4],
    ])
  })
})

describe('reconciler scheduling', () => {
  it('lists pending payments whose check is due, most overdue first, and no others', async () => {
    const first = await pendingPayment(T0, '1')
    const second = await pendingPayment(T0 + 10_000, '2')
    await newPayment(T0) // initiated: nothing to check at the gateway yet
    const settled = await pendingPayment(T0, '3')
    await applyOutcome(t.db, settled.id, 'failed', {}, T0 + 1, 'webhook')

    expect(await listPaymentsDueForCheck(t.db, T0 + 59_999, 10)).toEqual([])
    const due = await listPaymentsDueForCheck(t.db, T0 + 70_000, 10)
    expect(due.map((p) => p.id)).toEqual([first.id, second.id])
    expect(await listPaymentsDueForCheck(t.db, T0 + 70_000, 1)).toHaveLength(1)
  })

  it('backs off after each check without outcome', async () => {
    let p = await pendingPayment(T0, '1')
    const gaps: number[] = []
    let now = T0
    for (let i = 0; i < 8; i++) {
      now = p.nextCheckAt!
      expect(await scheduleNextCheck(t.db, p, now, { orderStatus: 0 })).toBe(true)
      p = (await getPaymentById(t.db, p.id))!
      gaps.push(p.nextCheckAt! - now)
    }
    expect(p.checkAttempts).toBe(8)
    expect(p.checkResponse).toEqual({ orderStatus: 0 })
    expect(gaps.map((g) => g / 60_000)).toEqual([2, 5, 10, 20, 30, 60, 60, 60])
  })

  it('does not reschedule a payment settled meanwhile or already rescheduled', async () => {
    const p = await pendingPayment(T0, '1')
    expect(await scheduleNextCheck(t.db, p, T0 + 60_000)).toBe(true)
    // a second reconciler holding the same stale row
    expect(await scheduleNextCheck(t.db, p, T0 + 60_001)).toBe(false)
    const fresh = (await getPaymentById(t.db, p.id))!
    await applyOutcome(t.db, p.id, 'paid', {}, T0 + 70_000, 'webhook')
    expect(await scheduleNextCheck(t.db, fresh, T0 + 80_000)).toBe(false)
    expect(await getPaymentById(t.db, p.id)).toMatchObject({ checkAttempts: 1, nextCheckAt: null })
  })
})
