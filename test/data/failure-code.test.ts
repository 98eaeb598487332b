import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { Link } from '../../db/schema.js'
import { adoptTransaction } from '../../src/data/payment-adopt.js'
import {
  applyOutcome,
  failStaleInitiated,
  markError,
  markPending,
  reservePayment,
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

async function pendingPayment(n: string) {
  const r = await reservePayment(t.db, paymentRequest(link), T0)
  if (!r.ok) throw new Error(r.reason)
  await markPending(
    t.db,
    r.payment.id,
    { transactionId: null, cibTransactionId: `41727${n}`, paymentUrl: 'u', gatewayResponse: {} },
    T0,
  )
  return r.payment.id
}

describe('failure_code is written by the UPDATE that settles the payment', () => {
  it('a failed outcome carries the reason it was given', async () => {
    const id = await pendingPayment('1')
    const r = await applyOutcome(
      t.db,
      id,
      'failed',
      { actionCode: '116', respCode: '05', failureCode: 'insufficient_funds' },
      T0 + 1,
      'webhook',
    )
    expect(r.payment).toMatchObject({ status: 'failed', failureCode: 'insufficient_funds' })
  })

  it('without a given reason, reads it from the stored codes as the backfill does', async () => {
    const id = await pendingPayment('2')
    const r = await applyOutcome(t.db, id, 'failed', { actionCode: '101' }, T0 + 1, 'return')
    expect(r.payment?.failureCode).toBe('expired_card')
    const expired = await pendingPayment('3')
    const e = await applyOutcome(t.db, expired, 'expired', {}, T0 + 1, 'reconciler')
    expect(e.payment?.failureCode).toBe('session_expired')
  })

  it('a late paid clears the earlier failure', async () => {
    const id = await pendingPayment('4')
    await applyOutcome(t.db, id, 'canceled', { actionCode: '10' }, T0 + 1, 'return')
    const r = await applyOutcome(t.db, id, 'paid', { respCode: '00' }, T0 + 2, 'webhook')
    expect(r.payment).toMatchObject({ status: 'paid', failureCode: null })
  })

  it('a duplicate settlement changes neither the status nor the reason', async () => {
    const id = await pendingPayment('5')
    await applyOutcome(t.db, id, 'failed', { failureCode: 'declined' }, T0 + 1, 'webhook')
    const again = await applyOutcome(
      t.db,
      id,
      'failed',
      { failureCode: 'insufficient_funds' },
      T0 + 2,
      'return',
    )
    expect(again.changed).toBe(false)
    expect(again.payment?.failureCode).toBe('declined')
  })

  it('a refused creation and a stale initiated payment are gateway errors; adoption clears it', async () => {
    const a = await reservePayment(t.db, paymentRequest(link), T0)
    const b = await reservePayment(t.db, paymentRequest(link), T0)
    if (!a.ok || !b.ok) throw new Error('not reserved')
    const refused = await markError(t.db, a.payment.id, 'gateway said no', T0 + 1, 'checkout')
    expect(refused.payment?.failureCode).toBe('gateway_error')
    const [stale] = await failStaleInitiated(t.db, T0 + 10, T0 + 20)
    expect(stale).toMatchObject({ id: b.payment.id, status: 'error', failureCode: 'gateway_error' })
    const adopted = await adoptTransaction(
      t.db,
      a.payment.id,
      { cibTransactionId: '999', transactionId: null },
      T0 + 30,
      'return',
    )
    expect(adopted.payment).toMatchObject({ status: 'pending', failureCode: null })
  })
})
