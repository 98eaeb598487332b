/**
 * Promo codes in the database: a code unique whatever its case and found in any case; its
 * redemptions held by the INSERT that starts a payment and counted by the triggers of
 * 0030_promo_code_holds (in flight → paid: a redemption; → failed or expired: the hold released;
 * paid late: counted all the same); the limit held for simultaneous customers on separate
 * connections to one SQLite file.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { applyOutcome, listPayments, markPending, reservePayment } from '../../src/data/payments.js'
import {
  createPromoCode,
  findPromoCode,
  getPromoCode,
  listPromoCodes,
  type PromoCodeValues,
  updatePromoCode,
} from '../../src/data/promo-codes.js'
import { plainOrder } from '../../src/domain/order.js'
import { storeLink } from '../support/links.js'
import { runContenders } from './contenders.js'
import { openTestDb, paymentRequest, T0, type TestDb } from './helpers.js'

let t: TestDb
beforeEach(() => {
  t = openTestDb()
})
afterEach(() => t.cleanup())

const VALUES: PromoCodeValues = {
  code: 'Ramadan10',
  percentOff: 10,
  amountOff: null,
  minAmount: null,
  maxRedemptions: null,
  expiresAt: null,
  active: true,
}

async function make(values: Partial<PromoCodeValues> = {}, at = T0) {
  const made = await createPromoCode(t.db, { ...VALUES, ...values }, at)
  if (!made.ok) throw new Error(made.kind)
  return made.promoCode
}

/** An order of 1 500 DA with 150 DA off by `promoCodeId`. */
const order = (promoCodeId: string) => ({
  ...plainOrder(150_000),
  discount: 15_000,
  promoCode: 'Ramadan10',
  promoCodeId,
})

async function reserveWith(promoCodeId: string, now = T0) {
  const link = await storeLink(t.db, { amount: 150_000 })
  return reservePayment(
    t.db,
    paymentRequest(link, { amount: 135_000, order: order(promoCodeId) }),
    now,
  )
}

const counts = async (id: string) => {
  const row = (await getPromoCode(t.db, id))!
  return { held: row.heldCount, redeemed: row.redeemedCount }
}

describe('promo codes', () => {
  it('stores a code with a promo_ id, unique whatever its case, and finds it in any case', async () => {
    const code = await make()
    expect(code.id).toMatch(/^promo_[0-9A-Za-z]{16}$/)
    expect(await createPromoCode(t.db, { ...VALUES, code: 'RAMADAN10' }, T0)).toEqual({
      ok: false,
      kind: 'code_taken',
    })
    expect((await findPromoCode(t.db, 'ramadan10'))?.id).toBe(code.id)
    expect(await findPromoCode(t.db, 'ramadan1')).toBeNull()
    // Made a moment later: the list is newest first (two codes made in the same millisecond are
    // ordered by their random ids).
    const other = await make({ code: 'BIENVENUE', percentOff: null, amountOff: 50_000 }, T0 + 1)
    expect(await updatePromoCode(t.db, other.id, { code: 'ramadan10' }, T0 + 1)).toEqual({
      ok: false,
      kind: 'code_taken',
    })
    expect((await listPromoCodes(t.db)).items.map((c) => c.code)).toEqual([
      'BIENVENUE',
      'Ramadan10',
    ])
    expect((await listPromoCodes(t.db, { active: false })).items).toEqual([])
  })

  it('refuses a code with both kinds of discount or none (the table CHECK)', async () => {
    await expect(make({ amountOff: 500 })).rejects.toThrow()
    await expect(make({ code: 'NONE', percentOff: null })).rejects.toThrow()
  })

  it('holds a redemption while a payment is in flight, counts it when paid, releases it when not', async () => {
    const code = await make()
    const a = await reserveWith(code.id)
    const b = await reserveWith(code.id)
    if (!a.ok || !b.ok) throw new Error('refused')
    expect(await counts(code.id)).toEqual({ held: 2, redeemed: 0 })
    const ids = {
      transactionId: 'tx-a',
      cibTransactionId: '1',
      paymentUrl: 'https://x',
      gatewayResponse: {},
    }
    await markPending(t.db, a.payment.id, ids, T0 + 1)
    expect(await counts(code.id)).toEqual({ held: 2, redeemed: 0 })
    await applyOutcome(t.db, a.payment.id, 'paid', {}, T0 + 2, 'webhook')
    expect(await counts(code.id)).toEqual({ held: 1, redeemed: 1 })
    await applyOutcome(t.db, b.payment.id, 'failed', {}, T0 + 3, 'webhook')
    expect(await counts(code.id)).toEqual({ held: 0, redeemed: 1 })
    // Paid late, after its hold was released: the money was taken, so it counts.
    await applyOutcome(t.db, b.payment.id, 'paid', {}, T0 + 4, 'webhook')
    expect(await counts(code.id)).toEqual({ held: 0, redeemed: 2 })
    expect(a.payment).toMatchObject({
      promoCode: 'Ramadan10',
      promoCodeId: code.id,
      discount: 15_000,
    })
  })

  it('refuses the payment, promo_unavailable, once held and paid redemptions reach the limit', async () => {
    const code = await make({ maxRedemptions: 2 })
    const a = await reserveWith(code.id)
    expect(a.ok).toBe(true)
    expect((await reserveWith(code.id)).ok).toBe(true)
    expect(await reserveWith(code.id)).toEqual({ ok: false, reason: 'promo_unavailable' })
    // One fails: its redemption is free again.
    if (!a.ok) throw new Error('refused')
    await applyOutcome(t.db, a.payment.id, 'expired', {}, T0 + 1, 'webhook')
    expect((await reserveWith(code.id)).ok).toBe(true)
    // A late paid goes past the limit (the money was taken), and holds the code closed.
    await applyOutcome(t.db, a.payment.id, 'paid', {}, T0 + 2, 'webhook')
    expect(await counts(code.id)).toEqual({ held: 2, redeemed: 1 })
    expect(await reserveWith(code.id)).toEqual({ ok: false, reason: 'promo_unavailable' })
  })

  it('refuses a code switched off or expired between the page and the payment', async () => {
    const code = await make({ expiresAt: T0 + 1000 })
    expect((await reserveWith(code.id, T0 + 1000)).ok).toBe(false)
    await updatePromoCode(t.db, code.id, { expiresAt: null, active: false }, T0)
    expect(await reserveWith(code.id)).toEqual({ ok: false, reason: 'promo_unavailable' })
    await updatePromoCode(t.db, code.id, { active: true }, T0)
    expect((await reserveWith(code.id)).ok).toBe(true)
    // A payment without a code is never held back by one.
    const link = await storeLink(t.db, { amount: 150_000 })
    expect((await reservePayment(t.db, paymentRequest(link), T0)).ok).toBe(true)
  })
})

describe('a promo code limit under concurrency', () => {
  it('lets exactly max_redemptions of 12 simultaneous customers use the code', async () => {
    const code = await make({ maxRedemptions: 3 })
    const links = await Promise.all(
      Array.from({ length: 12 }, () => storeLink(t.db, { amount: 150_000 })),
    )
    const tasks = links.map((link) => ({
      kind: 'reserve' as const,
      linkId: link.id,
      now: T0,
      order: order(code.id),
    }))
    const results = await runContenders(t.path, tasks)
    expect(results.filter((r) => r === 'ok')).toHaveLength(3)
    expect(results.filter((r) => r === 'promo_unavailable')).toHaveLength(9)
    expect(await counts(code.id)).toEqual({ held: 3, redeemed: 0 })
    const held = await Promise.all(links.map((l) => listPayments(t.db, { linkId: l.id })))
    expect(held.flatMap((page) => page.items)).toHaveLength(3)
  }, 60_000)
})
