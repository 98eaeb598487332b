import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { getLinkById, updateLink } from '../../src/data/links.js'
import {
  applyOutcome,
  listPayments,
  markError,
  markPending,
  reservePayment,
} from '../../src/data/payments.js'
import { DEFAULT_SESSION_MS, MIN_RETRY_AFTER_MS } from '../../src/domain/check-schedule.js'
import { storeLink } from '../support/links.js'
import { runContenders } from './contenders.js'
import { openTestDb, paymentRequest, T0, type TestDb } from './helpers.js'

let t: TestDb
beforeEach(() => {
  t = openTestDb()
})
afterEach(() => t.cleanup())

async function reserve(linkId: string, now: number, sessionMs?: number) {
  const link = (await getLinkById(t.db, linkId))!
  return reservePayment(t.db, paymentRequest(link), now, sessionMs ? { sessionMs } : {})
}

async function reserveOk(linkId: string, now = T0) {
  const r = await reserve(linkId, now)
  if (!r.ok) throw new Error(`refused: ${r.reason}`)
  return r.payment
}

describe('reservePayment', () => {
  it('writes an initiated payment with the customer, amount and language of the request', async () => {
    const link = await storeLink(t.db)
    const r = await reservePayment(
      t.db,
      paymentRequest(link, { ref: 'INV-7', invoiceId: 'inv_1', amount: 129950 }),
      T0,
    )
    expect(r.ok && r.payment).toMatchObject({
      linkId: link.id,
      status: 'initiated',
      amount: 129950,
      customerName: 'Amina Benali',
      customerPhone: '0550123456',
      customerEmail: 'amina@example.dz',
      ref: 'INV-7',
      invoiceId: 'inv_1',
      language: 'fr',
      checkAttempts: 0,
      createdAt: T0,
    })
  })

  it('takes any number of payments on a link without max_payments', async () => {
    const link = await storeLink(t.db)
    for (let i = 0; i < 5; i++) await reserveOk(link.id)
    expect((await listPayments(t.db, { linkId: link.id })).items).toHaveLength(5)
  })

  it('refuses an unknown, inactive or expired link and says which', async () => {
    const off = await storeLink(t.db, { active: false })
    const old = await storeLink(t.db, { expiresAt: T0 + 1000 })
    expect(await reserve(off.id, T0)).toEqual({ ok: false, reason: 'inactive' })
    expect(await reserve(old.id, T0 + 1000)).toEqual({ ok: false, reason: 'expired' })
    expect(await reserve(old.id, T0 + 999)).toMatchObject({ ok: true })
    expect(
      await reservePayment(t.db, { ...paymentRequest(off), linkId: 'lnk_missing' }, T0),
    ).toEqual({ ok: false, reason: 'not_found' })
  })

  it('says completed when paid payments fill max_payments', async () => {
    const link = await storeLink(t.db, { maxPayments: 2 })
    for (const p of [await reserveOk(link.id), await reserveOk(link.id)])
      await applyOutcome(t.db, p.id, 'paid', {}, T0 + 1, 'webhook')
    expect(await reserve(link.id, T0 + 2)).toEqual({ ok: false, reason: 'completed' })
  })

  it('says in progress when pending payments hold the remaining places, with a retry hint', async () => {
    const link = await storeLink(t.db, { maxPayments: 2 })
    const paid = await reserveOk(link.id, T0)
    await applyOutcome(t.db, paid.id, 'paid', {}, T0 + 1, 'webhook')
    const pending = await reserveOk(link.id, T0 + 60_000)
    await markPending(
      t.db,
      pending.id,
      { transactionId: 't', cibTransactionId: '1', paymentUrl: 'https://x', gatewayResponse: {} },
      T0 + 60_001,
    )
    const now = T0 + 5 * 60_000
    const r = await reserve(link.id, now)
    // The oldest in-flight payment's session ends 20 minutes after it started.
    const wait = T0 + 60_000 + DEFAULT_SESSION_MS - now
    expect(r).toEqual({ ok: false, reason: 'in_progress', retryAfterMs: wait, retryAt: now + wait })
    expect(await reserve(link.id, now, 10 * 60_000)).toMatchObject({
      retryAfterMs: T0 + 60_000 + 10 * 60_000 - now,
    })
  })

  it('suggests a short wait when the oldest pending payment is past its session', async () => {
    const link = await storeLink(t.db, { maxPayments: 1 })
    await reserveOk(link.id, T0)
    const r = await reserve(link.id, T0 + DEFAULT_SESSION_MS + 60_000)
    expect(r).toMatchObject({ reason: 'in_progress', retryAfterMs: MIN_RETRY_AFTER_MS })
  })

  it('gives a place back when a payment fails, errs or expires', async () => {
    const link = await storeLink(t.db, { maxPayments: 1 })
    const a = await reserveOk(link.id)
    await markError(t.db, a.id, 'unreachable', T0 + 1, 'checkout')
    const b = await reserveOk(link.id, T0 + 2)
    await applyOutcome(t.db, b.id, 'failed', {}, T0 + 3, 'webhook')
    const c = await reserveOk(link.id, T0 + 4)
    await applyOutcome(t.db, c.id, 'expired', {}, T0 + 5, 'webhook')
    await reserveOk(link.id, T0 + 6)
    expect(await reserve(link.id, T0 + 7)).toMatchObject({ reason: 'in_progress' })
  })

  it('follows the merchant switching a link off and on', async () => {
    const link = await storeLink(t.db)
    await updateLink(t.db, link.id, { active: false }, T0)
    expect(await reserve(link.id, T0)).toMatchObject({ ok: false, reason: 'inactive' })
    await updateLink(t.db, link.id, { active: true }, T0)
    expect(await reserve(link.id, T0)).toMatchObject({ ok: true })
  })
})

describe('reservePayment under concurrency', () => {
  // 24 worker threads, each loading the sources: about 6 s on a quiet 2-core machine, far more
  // when it is busy.
  it('lets exactly max_payments of 20 simultaneous customers through separate connections', async () => {
    const link = await storeLink(t.db, { maxPayments: 5 })
    const tasks = Array.from({ length: 20 }, () => ({
      kind: 'reserve' as const,
      linkId: link.id,
      now: T0,
    }))
    const results = await runContenders(t.path, tasks)
    expect(results.filter((r) => r === 'ok')).toHaveLength(5)
    expect(results.filter((r) => r === 'in_progress')).toHaveLength(15)
    const stored = await listPayments(t.db, { linkId: link.id })
    expect(stored.items).toHaveLength(5)

    // Once those five are paid, the next customers are told the link is complete.
    for (const p of stored.items) await applyOutcome(t.db, p.id, 'paid', {}, T0 + 1, 'webhook')
    const after = await runContenders(t.path, tasks.slice(0, 4))
    expect(after).toEqual(['completed', 'completed', 'completed', 'completed'])
  }, 60_000)
})
