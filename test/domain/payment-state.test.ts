import { describe, expect, it } from 'vitest'
import {
  canTransition,
  isSettled,
  OUTCOMES,
  PAYMENT_STATUSES,
  TRANSITIONS_INTO,
} from '../../src/domain/payment-state.js'

describe('payment transitions', () => {
  it('follow the documented path: initiated → pending → an outcome, initiated → error', () => {
    expect(canTransition('initiated', 'pending')).toBe(true)
    for (const outcome of OUTCOMES) expect(canTransition('pending', outcome)).toBe(true)
    expect(canTransition('initiated', 'error')).toBe(true)
    expect(canTransition('pending', 'error')).toBe(false)
    expect(canTransition('pending', 'initiated')).toBe(false)
  })

  it('let a confirmed paid override failed, canceled and expired', () => {
    for (const from of ['failed', 'canceled', 'expired'] as const)
      expect(canTransition(from, 'paid')).toBe(true)
  })

  it('never leave paid, not even towards paid again', () => {
    for (const to of PAYMENT_STATUSES) expect(canTransition('paid', to)).toBe(false)
  })

  it('never leave error, and never move between failed, canceled and expired', () => {
    for (const to of PAYMENT_STATUSES) expect(canTransition('error', to)).toBe(false)
    for (const from of ['failed', 'canceled', 'expired'] as const)
      for (const to of ['failed', 'canceled', 'expired', 'pending'] as const)
        expect(canTransition(from, to)).toBe(false)
  })

  it('never re-enter initiated and never stay in place (a duplicate changes nothing)', () => {
    expect(TRANSITIONS_INTO.initiated).toEqual([])
    for (const s of PAYMENT_STATUSES) expect(canTransition(s, s)).toBe(false)
  })

  it('call every state except initiated and pending settled', () => {
    expect(PAYMENT_STATUSES.filter(isSettled)).toEqual([
      'paid',
      'failed',
      'canceled',
      'expired',
      'error',
    ])
  })
})
