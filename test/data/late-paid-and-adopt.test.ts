/**
 * Two writes of the crash window, on a real SQLite file: the `paid` transition flags a payment
 * that arrives after the link's places were filled, in the same statement; adoption stores a
 * transaction's ids once, only on a payment without ids that is initiated or error.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { Link } from '../../db/schema.js'
import {
  adoptTransaction,
  applyOutcome,
  countPaymentsBeyondMax,
  markError,
  markPending,
  reservePayment,
} from '../../src/data/payments.js'
import { storeLink } from '../support/links.js'
import { openTestDb, paymentRequest, T0, type TestDb } from './helpers.js'

let t: TestDb
beforeEach(() => {
  t = openTestDb()
})
afterEach(() => t.cleanup())

async function reserve(link: Link, now = T0) {
  const r = await reservePayment(t.db, paymentRequest(link), now)
  if (!r.ok) throw new Error(r.reason)
  return r.payment
}

let n = 0
async function pending(link: Link, now = T0) {
  const p = await reserve(link, now)
  n++
  await markPending(
    t.db,
    p.id,
    { transactionId: null, cibTransactionId: `9000${n}`, paymentUrl: 'u', gatewayResponse: null },
    now,
  )
  return p
}

describe('a paid payment beyond the link’s max_payments', () => {
  it('is recorded paid and flagged when others paid the link full after its place was freed', async () => {
    const link = await storeLink(t.db, { maxPayments: 1 })
    const late = await pending(link)
    await applyOutcome(t.db, late.id, 'expired', {}, T0 + 1, 'webhook')
    const other = await pending(link, T0 + 2)
    const otherPaid = await applyOutcome(t.db, other.id, 'paid', {}, T0 + 3, 'webhook')
    expect(otherPaid.payment).toMatchObject({ status: 'paid', beyondMaxPayments: false })

    const r = await applyOutcome(t.db, late.id, 'paid', { approvalCode: '1' }, T0 + 4, 'webhook')
    expect(r).toMatchObject({ changed: true, payment: { status: 'paid', beyondMaxPayments: true } })
    expect(await countPaymentsBeyondMax(t.db, link.id)).toBe(1)
  })

  it('is not flagged while the link still has a place, nor on a link without a limit', async () => {
    const two = await storeLink(t.db, { maxPayments: 2 })
    const late = await pending(two)
    await applyOutcome(t.db, late.id, 'expired', {}, T0 + 1, 'webhook')
    await applyOutcome(t.db, (await pending(two)).id, 'paid', {}, T0 + 2, 'webhook')
    const r = await applyOutcome(t.db, late.id, 'paid', {}, T0 + 3, 'webhook')
    expect(r.payment).toMatchObject({ status: 'paid', beyondMaxPayments: false })

    const open = await storeLink(t.db, { maxPayments: null })
    const first = await pending(open)
    await applyOutcome(t.db, first.id, 'failed', {}, T0 + 1, 'webhook')
    for (let i = 0; i < 3; i++)
      await applyOutcome(t.db, (await pending(open)).id, 'paid', {}, T0, 'webhook')
    const again = await applyOutcome(t.db, first.id, 'paid', {}, T0 + 5, 'webhook')
    expect(again.payment).toMatchObject({ status: 'paid', beyondMaxPayments: false })
    expect(await countPaymentsBeyondMax(t.db, open.id)).toBe(0)
  })

  it('flags exactly one of two late payments that come back for the last place', async () => {
    const link = await storeLink(t.db, { maxPayments: 1 })
    const a = await pending(link)
    await applyOutcome(t.db, a.id, 'expired', {}, T0 + 1, 'webhook')
    const b = await pending(link, T0 + 2)
    await applyOutcome(t.db, b.id, 'canceled', {}, T0 + 3, 'webhook')
    await applyOutcome(t.db, a.id, 'paid', {}, T0 + 4, 'webhook')
    await applyOutcome(t.db, b.id, 'paid', {}, T0 + 5, 'webhook')
    expect(await countPaymentsBeyondMax(t.db, link.id)).toBe(1)
  })
})

describe('adoptTransaction', () => {
  const ids = { cibTransactionId: '5550001', transactionId: 'tx-1' }

  it('stores the ids on an initiated payment and makes it pending', async () => {
    const link = await storeLink(t.db)
    const p = await reserve(link)
    const r = await adoptTransaction(t.db, p.id, ids, T0 + 10, 'return')
    expect(r).toMatchObject({
      changed: true,
      payment: { status: 'pending', cibTransactionId: '5550001', transactionId: 'tx-1' },
    })
    expect((await adoptTransaction(t.db, p.id, ids, T0 + 11, 'return')).changed).toBe(false)
  })

  it('brings an error payment back to pending, clearing the reason', async () => {
    const link = await storeLink(t.db)
    const p = await reserve(link)
    await markError(t.db, p.id, 'gateway_timeout', T0 + 1, 'checkout')
    const r = await adoptTransaction(t.db, p.id, ids, T0 + 10, 'return')
    expect(r.payment).toMatchObject({ status: 'pending', errorReason: null, settledAt: null })
  })

  it('leaves alone a payment with ids, a settled one, and a transaction another payment holds', async () => {
    const link = await storeLink(t.db)
    const held = await pending(link)
    const heldCib = `9000${n}`
    expect((await adoptTransaction(t.db, held.id, ids, T0, 'return')).changed).toBe(false)

    const failed = await reserve(link)
    await applyOutcome(t.db, failed.id, 'failed', {}, T0, 'webhook')
    expect((await adoptTransaction(t.db, failed.id, ids, T0, 'return')).payment?.status).toBe(
      'failed',
    )

    const other = await reserve(link)
    const taken = await adoptTransaction(
      t.db,
      other.id,
      { cibTransactionId: heldCib, transactionId: null },
      T0,
      'return',
    )
    expect(taken).toMatchObject({ changed: false, payment: { status: 'initiated' } })
    expect(taken.payment?.cibTransactionId).toBeNull()
  })
})
