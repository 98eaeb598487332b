import { eq } from 'drizzle-orm'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { type Link, PAYMENT_STATUSES, type PaymentStatus, payments } from '../../db/schema.js'
import {
  applyOutcome,
  failStaleInitiated,
  getPaymentByCibTransactionId,
  getPaymentById,
  getPaymentByReceiptId,
  markError,
  markPending,
  reservePayment,
} from '../../src/data/payments.js'
import { canTransition, OUTCOMES } from '../../src/domain/payment-state.js'
import { storeLink } from '../support/links.js'
import { openTestDb, paymentRequest, T0, type TestDb } from './helpers.js'

let t: TestDb
let link: Link
beforeEach(async () => {
  t = openTestDb()
  link = await storeLink(t.db)
})
afterEach(() => t.cleanup())

const gatewayIds = (n: string) => ({
  transactionId: `0b7c6a52-${n}`,
  cibTransactionId: `41727${n}`,
  paymentUrl: `https://cib.example/pay/${n}`,
  orderId: `order-${n}`,
  gatewayResponse: { success: true, status: 'pending_user_transfer_start' },
})

async function newPayment(now = T0) {
  const r = await reservePayment(t.db, paymentRequest(link), now)
  if (!r.ok) throw new Error(r.reason)
  return r.payment
}

/** A payment forced into `status` (set-up only: the transitions under test never do this). */
async function paymentIn(status: PaymentStatus) {
  const p = await newPayment()
  await t.db.update(payments).set({ status }).where(eq(payments.id, p.id))
  return p.id
}

describe('markPending and markError', () => {
  it('moves an initiated payment to pending and stores the gateway ids', async () => {
    const p = await newPayment()
    expect(p).toMatchObject({ status: 'initiated', amount: 150000, currency: '012' })
    expect(p.receiptId).toMatch(/^[0-9A-Za-z]{22}$/)
    const r = await markPending(t.db, p.id, gatewayIds('1'), T0 + 100)
    expect(r.changed).toBe(true)
    expect(r.payment).toMatchObject({
      status: 'pending',
      cibTransactionId: '417271',
      orderId: 'order-1',
      paymentUrl: 'https://cib.example/pay/1',
      gatewayResponse: { success: true, status: 'pending_user_transfer_start' },
      updatedAt: T0 + 100,
      nextCheckAt: T0 + 100 + 60_000,
    })
    expect(await getPaymentByCibTransactionId(t.db, '417271')).toMatchObject({ id: p.id })
    expect(await getPaymentByReceiptId(t.db, p.receiptId)).toMatchObject({ id: p.id })
  })

  it('applies markPending once: a second call changes nothing', async () => {
    const p = await newPayment()
    await markPending(t.db, p.id, gatewayIds('1'), T0 + 1)
    const again = await markPending(t.db, p.id, gatewayIds('2'), T0 + 2)
    expect(again.changed).toBe(false)
    expect(again.payment).toMatchObject({ cibTransactionId: '417271', updatedAt: T0 + 1 })
  })

  it('marks an initiated payment as error with the reason, and nothing else', async () => {
    const p = await newPayment()
    const r = await markError(t.db, p.id, 'gateway unreachable', T0 + 5, 'checkout')
    expect(r).toMatchObject({
      changed: true,
      payment: { status: 'error', errorReason: 'gateway unreachable', settledAt: T0 + 5 },
    })
    const pending = await newPayment()
    await markPending(t.db, pending.id, gatewayIds('3'), T0)
    expect((await markError(t.db, pending.id, 'late', T0 + 6, 'checkout')).changed).toBe(false)
    expect((await getPaymentById(t.db, pending.id))?.status).toBe('pending')
  })

  it('reports an unknown payment as unchanged and absent', async () => {
    expect(await applyOutcome(t.db, 'pay_missing', 'paid', {}, T0, 'webhook')).toEqual({
      changed: false,
      payment: null,
    })
  })
})

describe('applyOutcome', () => {
  for (const from of PAYMENT_STATUSES) {
    for (const to of OUTCOMES) {
      const allowed = canTransition(from, to)
      it(`${allowed ? 'moves' : 'does not move'} a payment from ${from} to ${to}`, async () => {
        const id = await paymentIn(from)
        const r = await applyOutcome(
          t.db,
          id,
          to,
          { message: 'from the check' },
          T0 + 10,
          'webhook',
        )
        expect(r.changed).toBe(allowed)
        expect(r.payment?.status).toBe(allowed ? to : from)
        expect(r.payment?.message).toBe(allowed ? 'from the check' : null)
      })
    }
  }

  it('settles a pending payment as paid with the check details and the paid time', async () => {
    const p = await newPayment()
    await markPending(t.db, p.id, gatewayIds('1'), T0)
    const r = await applyOutcome(
      t.db,
      p.id,
      'paid',
      {
        approvalCode: '123456',
        message: 'Approved',
        respCode: '00',
        orderNumber: '417271',
        checkResponse: { orderStatus: 2 },
      },
      T0 + 60_000,
      'webhook',
    )
    expect(r.payment).toMatchObject({
      status: 'paid',
      approvalCode: '123456',
      message: 'Approved',
      respCode: '00',
      paidAt: T0 + 60_000,
      settledAt: T0 + 60_000,
      nextCheckAt: null,
      checkResponse: { orderStatus: 2 },
      // fields the outcome did not name are kept
      cibTransactionId: '417271',
    })
  })

  it('applies a duplicate paid delivery once: the second changes nothing', async () => {
    const p = await newPayment()
    await markPending(t.db, p.id, gatewayIds('1'), T0)
    expect(
      (await applyOutcome(t.db, p.id, 'paid', { approvalCode: 'A1' }, T0 + 1, 'webhook')).changed,
    ).toBe(true)
    const dup = await applyOutcome(t.db, p.id, 'paid', { approvalCode: 'B2' }, T0 + 2, 'webhook')
    expect(dup.changed).toBe(false)
    expect(dup.payment).toMatchObject({ status: 'paid', approvalCode: 'A1', paidAt: T0 + 1 })
  })

  it('lets a confirmed paid override an earlier failed (the money was taken)', async () => {
    const p = await newPayment()
    await markPending(t.db, p.id, gatewayIds('1'), T0)
    await applyOutcome(t.db, p.id, 'failed', { message: 'Declined' }, T0 + 1, 'webhook')
    const r = await applyOutcome(t.db, p.id, 'paid', { message: 'Approved' }, T0 + 2, 'webhook')
    expect(r).toMatchObject({ changed: true, payment: { status: 'paid', message: 'Approved' } })
  })

  it('never moves a paid payment, whatever arrives after', async () => {
    const p = await newPayment()
    await applyOutcome(t.db, p.id, 'paid', {}, T0 + 1, 'webhook')
    for (const outcome of ['failed', 'canceled', 'expired'] as const) {
      expect((await applyOutcome(t.db, p.id, outcome, {}, T0 + 2, 'webhook')).changed).toBe(false)
    }
    expect((await markError(t.db, p.id, 'x', T0 + 3, 'checkout')).changed).toBe(false)
    expect((await getPaymentById(t.db, p.id))?.status).toBe('paid')
  })
})

describe('failStaleInitiated', () => {
  it('turns payments initiated before the cut-off into errors and leaves newer ones', async () => {
    const old = await newPayment(T0)
    const recent = await newPayment(T0 + 110_000)
    const pending = await newPayment(T0)
    await markPending(t.db, pending.id, gatewayIds('9'), T0 + 1)
    const failed = await failStaleInitiated(t.db, T0 + 100_000, T0 + 120_000)
    expect(failed.map((p) => p.id)).toEqual([old.id])
    expect(failed[0]).toMatchObject({ status: 'error', errorReason: 'gateway_timeout' })
    expect((await getPaymentById(t.db, recent.id))?.status).toBe('initiated')
    expect((await getPaymentById(t.db, pending.id))?.status).toBe('pending')
  })
})
