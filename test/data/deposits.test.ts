/**
 * Deposit links in the database: the INSERT that starts a payment holds its part of the balance
 * (`paid_total + in_flight_total + part <= amount`), the counters' triggers count each payment's
 * part (amount less the customer's fee) and release it when it leaves flight, and a receipt's
 * lines read the parts paid before it.
 */
import { eq } from 'drizzle-orm'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { deliveries } from '../../db/schema.js'
import { receiptDeposit } from '../../src/data/deposits.js'
import { getLinkById } from '../../src/data/links.js'
import {
  applyOutcome,
  getPaymentById,
  markPending,
  reservePayment,
} from '../../src/data/payments.js'
import { plainOrder } from '../../src/domain/order.js'
import { createEndpoint } from '../../src/outbound-webhooks/endpoints.js'
import { storeLink } from '../support/links.js'
import { runContenders } from './contenders.js'
import { openTestDb, paymentRequest, T0, type TestDb } from './helpers.js'

let t: TestDb
beforeEach(() => {
  t = openTestDb()
})
afterEach(() => t.cleanup())

/** A 3 000 DA link paid in parts of at least 1 000 DA. */
const depositLink = () => storeLink(t.db, { amount: 300000, partialMinAmount: 100000 })

async function reservePart(linkId: string, part: number, fee = 0, now = T0) {
  const link = (await getLinkById(t.db, linkId))!
  const order = { ...plainOrder(part), fee }
  return reservePayment(t.db, paymentRequest(link, { amount: part + fee, order }), now)
}

async function paidPart(linkId: string, part: number, at: number, fee = 0) {
  const r = await reservePart(linkId, part, fee, at)
  if (!r.ok) throw new Error(`refused: ${r.reason}`)
  await applyOutcome(t.db, r.payment.id, 'paid', {}, at, 'webhook')
  return r.payment
}

const counters = async (id: string) => {
  const l = (await getLinkById(t.db, id))!
  return { paidTotal: l.paidTotal, inFlightTotal: l.inFlightTotal, paidCount: l.paidCount }
}

describe('a deposit link’s balance held by the INSERT', () => {
  it('holds the parts in flight and releases a part that fails', async () => {
    const link = await depositLink()
    const first = await reservePart(link.id, 200000)
    expect(first.ok).toBe(true)
    expect(await counters(link.id)).toEqual({ paidTotal: 0, inFlightTotal: 200000, paidCount: 0 })
    // 2 000 DA in flight: a whole 3 000 DA no longer fits beside it; 1 000 DA does.
    expect(await reservePart(link.id, 300000)).toMatchObject({ ok: false, reason: 'in_progress' })
    const second = await reservePart(link.id, 100000)
    expect(second.ok).toBe(true)
    if (!first.ok || !second.ok) return
    await applyOutcome(t.db, first.payment.id, 'failed', {}, T0 + 1, 'webhook')
    expect(await counters(link.id)).toEqual({ paidTotal: 0, inFlightTotal: 100000, paidCount: 0 })
    await markPending(
      t.db,
      second.payment.id,
      {
        transactionId: 't',
        cibTransactionId: 'c',
        paymentUrl: 'u',
        orderId: null,
        orderNumber: null,
        gatewayResponse: null,
      },
      T0 + 2,
    )
    await applyOutcome(t.db, second.payment.id, 'paid', {}, T0 + 3, 'webhook')
    expect(await counters(link.id)).toEqual({ paidTotal: 100000, inFlightTotal: 0, paidCount: 1 })
  })

  it('refuses a part above the balance as balance_changed, and any part once paid in full', async () => {
    const link = await depositLink()
    await paidPart(link.id, 200000, T0)
    expect(await reservePart(link.id, 150000)).toEqual({
      ok: false,
      reason: 'balance_changed',
      balance: 100000,
    })
    await paidPart(link.id, 100000, T0 + 1)
    expect(await reservePart(link.id, 100000)).toEqual({ ok: false, reason: 'completed' })
  })

  it('counts a part without the customer’s fee: the fee never pays the balance', async () => {
    const link = await depositLink()
    const p = await paidPart(link.id, 300000, T0, 3000)
    expect(p.amount).toBe(303000)
    expect(await counters(link.id)).toEqual({ paidTotal: 300000, inFlightTotal: 0, paidCount: 1 })
  })

  it('leaves links without deposits as they were: any number of fixed payments', async () => {
    const link = await storeLink(t.db, { amount: 300000 })
    for (let i = 0; i < 3; i++) expect((await reservePart(link.id, 300000)).ok).toBe(true)
  })
})

describe('a deposit link’s link.completed event', () => {
  it('is written once, when the parts paid reach the amount, a fee never counting', async () => {
    const endpoint = await createEndpoint(
      t.db,
      {
        url: 'https://hooks.example.dz/in',
        description: null,
        eventTypes: ['link.completed'],
        enabled: true,
      },
      T0,
    )
    const events = () =>
      t.db.select().from(deliveries).where(eq(deliveries.endpointId, endpoint.id))
    const link = await depositLink()
    await paidPart(link.id, 200000, T0 + 1)
    // 990 DA and a 10 DA fee: the card pays 1 000 DA, the balance is not paid.
    await paidPart(link.id, 99000, T0 + 2, 1000)
    expect(await counters(link.id)).toMatchObject({ paidTotal: 299000 })
    expect(await events()).toEqual([])
    const last = await paidPart(link.id, 1000, T0 + 3, 10)
    expect((await events()).map((e) => [e.type, e.paymentId])).toEqual([
      ['link.completed', last.id],
    ])
  })
})

describe('a deposit part’s receipt lines', () => {
  it('reads what was paid up to each part, in the order they were paid', async () => {
    const link = await depositLink()
    const a = await paidPart(link.id, 100000, T0 + 10)
    const b = await paidPart(link.id, 150000, T0 + 20, 1500)
    const c = await paidPart(link.id, 50000, T0 + 30)
    const stored = (await getLinkById(t.db, link.id))!
    const lines = async (id: string, on = stored) =>
      receiptDeposit(t.db, (await getPaymentById(t.db, id))!, on)
    expect(await lines(a.id)).toEqual({ total: 300000, paid: 100000, remaining: 200000 })
    expect(await lines(b.id)).toEqual({ total: 300000, paid: 250000, remaining: 50000 })
    expect(await lines(c.id)).toEqual({ total: 300000, paid: 300000, remaining: 0 })
    // A link that takes no parts has no deposit lines.
    expect(await lines(a.id, { ...stored, partialMinAmount: null })).toBeNull()
  })
})

describe('a deposit link under concurrency', () => {
  it('lets one of two customers paying the whole balance at once through (SQLite file)', async () => {
    const link = await depositLink()
    await paidPart(link.id, 100000, T0)
    const task = { kind: 'reserve' as const, linkId: link.id, now: T0 + 1, amount: 200000 }
    const results = await runContenders(t.path, [task, { ...task }])
    expect(results.sort()).toEqual(['in_progress', 'ok'])
    expect(await counters(link.id)).toEqual({
      paidTotal: 100000,
      inFlightTotal: 200000,
      paidCount: 1,
    })
  }, 60_000)
})
