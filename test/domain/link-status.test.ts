import { describe, expect, it } from 'vitest'
import { amountForPayment, linkStatus } from '../../src/domain/link-status.js'

const NOW = 1_800_000_000_000
const link = { active: true, expiresAt: null, maxPayments: null }

describe('linkStatus', () => {
  it('is active when on, unexpired and not full', () => {
    expect(linkStatus(link, { paidCount: 100 }, NOW)).toBe('active')
    expect(linkStatus({ ...link, maxPayments: 3, expiresAt: NOW + 1 }, { paidCount: 2 }, NOW)).toBe(
      'active',
    )
  })

  it('is expired from the expiry instant on', () => {
    expect(linkStatus({ ...link, expiresAt: NOW }, { paidCount: 0 }, NOW)).toBe('expired')
    expect(linkStatus({ ...link, expiresAt: NOW + 1 }, { paidCount: 0 }, NOW)).toBe('active')
  })

  it('is completed once paid payments reach max_payments', () => {
    expect(linkStatus({ ...link, maxPayments: 1 }, { paidCount: 1 }, NOW)).toBe('completed')
    expect(linkStatus({ ...link, maxPayments: 1, expiresAt: NOW - 1 }, { paidCount: 1 }, NOW)).toBe(
      'completed',
    )
  })

  it('is inactive whenever the merchant turned it off, whatever else holds', () => {
    const off = { active: false, expiresAt: NOW - 1, maxPayments: 1 }
    expect(linkStatus(off, { paidCount: 1 }, NOW)).toBe('inactive')
  })
})

describe('amountForPayment', () => {
  const open = { amount: null, amountMin: 5000, amountMax: 200000 }

  it('charges a fixed link its own amount, whatever was entered', () => {
    expect(amountForPayment({ ...open, amount: 150000 }, '1')).toEqual({ ok: true, amount: 150000 })
  })

  it('takes an open amount as DZD text or number, exactly', () => {
    expect(amountForPayment(open, '1299.5')).toEqual({ ok: true, amount: 129950 })
    expect(amountForPayment(open, 50)).toEqual({ ok: true, amount: 5000 })
    expect(amountForPayment(open, ' 1000.00 ')).toEqual({ ok: true, amount: 100000 })
  })

  it('refuses a missing, malformed or out-of-range open amount and says which', () => {
    expect(amountForPayment(open, '')).toEqual({ ok: false, reason: 'required' })
    expect(amountForPayment(open, undefined)).toEqual({ ok: false, reason: 'required' })
    expect(amountForPayment(open, '12,5')).toEqual({ ok: false, reason: 'invalid' })
    expect(amountForPayment(open, '10.123')).toEqual({ ok: false, reason: 'invalid' })
    expect(amountForPayment(open, '49.99')).toEqual({ ok: false, reason: 'below_min', limit: 5000 })
    expect(amountForPayment(open, '2000.01')).toEqual({
      ok: false,
      reason: 'above_max',
      limit: 200000,
    })
  })

  it('caps an open amount without maximum at 100000000 DZD', () => {
    const noMax = { ...open, amountMax: null }
    expect(amountForPayment(noMax, 100_000_000)).toMatchObject({ ok: true })
    expect(amountForPayment(noMax, 100_000_000.01)).toMatchObject({ reason: 'above_max' })
  })
})
