import { describe, expect, it } from 'vitest'
import { checkDepositPart, depositView, remainingAfter } from '../../src/domain/deposit.js'
import { linkBalance, linkStatus } from '../../src/domain/link-status.js'

const link = { amount: 300000, partialMinAmount: 100000 }

describe('depositView', () => {
  it('shows the total, paid so far and the balance, bounded by the least part and the balance', () => {
    expect(depositView(link, { paidTotal: 50000 })).toEqual({
      total: 300000,
      paid: 50000,
      balance: 250000,
      min: 100000,
      max: 250000,
    })
  })

  it('lets the whole balance be paid when it is below the least part', () => {
    expect(depositView(link, { paidTotal: 250000 })).toMatchObject({
      balance: 50000,
      min: 50000,
      max: 50000,
    })
  })

  it('never shows more paid than the total, nor a balance below 0 (a part paid late)', () => {
    expect(depositView(link, { paidTotal: 350000 })).toMatchObject({ paid: 300000, balance: 0 })
  })

  it('is null for a link that takes no parts or has no amount', () => {
    expect(depositView({ amount: 300000, partialMinAmount: null }, { paidTotal: 0 })).toBeNull()
    expect(depositView({ amount: null, partialMinAmount: 100000 }, { paidTotal: 0 })).toBeNull()
  })
})

describe('checkDepositPart', () => {
  const view = depositView(link, { paidTotal: 0 })!
  it('takes a part within the bounds, in DZD text', () => {
    expect(checkDepositPart(view, '1000')).toEqual({ ok: true, part: 100000 })
    expect(checkDepositPart(view, '3000.00')).toEqual({ ok: true, part: 300000 })
  })
  it('refuses below the least part, above the balance, empty or not an amount', () => {
    expect(checkDepositPart(view, '999.99')).toEqual({
      ok: false,
      reason: 'below_min',
      limit: 100000,
    })
    expect(checkDepositPart(view, '3000.01')).toEqual({
      ok: false,
      reason: 'above_max',
      limit: 300000,
    })
    expect(checkDepositPart(view, '')).toEqual({ ok: false, reason: 'required' })
    expect(checkDepositPart(view, '10.001')).toEqual({ ok: false, reason: 'invalid' })
  })
  it('takes the whole rest when it is less than the least part', () => {
    const last = depositView(link, { paidTotal: 250000 })!
    expect(checkDepositPart(last, '500')).toEqual({ ok: true, part: 50000 })
    expect(checkDepositPart(last, '400')).toMatchObject({ ok: false, reason: 'below_min' })
  })
  it('says what remains after a part, never below 0', () => {
    expect(remainingAfter(300000, 100000)).toBe(200000)
    expect(remainingAfter(50000, 100000)).toBe(0)
  })
})

describe('a deposit link’s status and balance', () => {
  const base = { active: true, expiresAt: null, maxPayments: null, ...link }
  it('is completed when what was paid reaches the amount, whatever the number of payments', () => {
    expect(linkStatus(base, { paidCount: 5, paidTotal: 299999 }, 0)).toBe('active')
    expect(linkStatus(base, { paidCount: 2, paidTotal: 300000 }, 0)).toBe('completed')
  })
  it('leaves a fixed link without deposits to max_payments alone', () => {
    const fixed = { ...base, partialMinAmount: null }
    expect(linkStatus(fixed, { paidCount: 2, paidTotal: 300000 }, 0)).toBe('active')
  })
  it('has a balance for every fixed link, never below 0, and none for an open one', () => {
    expect(linkBalance({ amount: 300000 }, { paidTotal: 100000 })).toBe(200000)
    expect(linkBalance({ amount: 300000 }, { paidTotal: 600000 })).toBe(0)
    expect(linkBalance({ amount: null }, { paidTotal: 100000 })).toBeNull()
  })
})
