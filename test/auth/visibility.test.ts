/**
 * The visibility rule itself (src/auth/visibility.ts): which payments a principal sees, as
 * query bounds on the Algiers day, and whose till sale it may see; the routes' tests show each
 * surface applying it.
 */
import { describe, expect, it } from 'vitest'
import type { Principal } from '../../src/auth/principal.js'
import type { Role } from '../../src/auth/roles.js'
import { maySeeSale, paymentScopeOf, withinScope } from '../../src/auth/visibility.js'

const person = (role: Role, email = `${role}@shop.dz`): Principal => ({
  kind: 'user',
  userId: `usr_${role}`,
  email,
  name: role,
  role,
})
// 2026-03-01 23:30 UTC is 00:30 on 2 March in Algiers (UTC+1).
const LATE = Date.UTC(2026, 2, 1, 23, 30)
const ALGIERS_2_MARCH = Date.UTC(2026, 2, 1, 23, 0)

describe('paymentScopeOf', () => {
  it('lets every role that reads payments see them all', () => {
    for (const who of [person('owner'), person('manager'), person('viewer'), { kind: 'admin' }])
      expect(paymentScopeOf(who as Principal, LATE)).toEqual({})
  })

  it("narrows a cashier to the Algiers day, not UTC's, without other cashiers' sales", () => {
    expect(paymentScopeOf(person('cashier'), LATE)).toEqual({
      seenByCashier: 'cashier@shop.dz',
      createdFrom: ALGIERS_2_MARCH,
      createdTo: ALGIERS_2_MARCH + 86_400_000,
    })
  })

  it('lets a key acting as a cashier see no payment (the till has no API)', () => {
    const key: Principal = {
      kind: 'key',
      keyId: 'key_1',
      name: 'cashier@shop.dz',
      scope: 'write',
      userId: 'usr_cashier',
      role: 'cashier',
    }
    expect(paymentScopeOf(key, LATE)).toBeNull()
  })
})

describe('withinScope', () => {
  const scope = { seenByCashier: 'c@shop.dz', createdFrom: 1_000, createdTo: 2_000 }
  it('keeps the narrower of the asked dates and the scope', () => {
    expect(withinScope({ createdFrom: 0, createdTo: 9_000 }, scope)).toEqual(scope)
    expect(withinScope({ createdFrom: 1_500, linkId: 'lnk_1' }, scope)).toEqual({
      ...scope,
      createdFrom: 1_500,
      linkId: 'lnk_1',
    })
  })
  it('changes nothing for a principal who sees everything', () => {
    expect(withinScope({ createdFrom: 5 }, {})).toEqual({ createdFrom: 5 })
  })
})

describe('maySeeSale', () => {
  it('is the cashier who made it, a manager or the owner', () => {
    expect(maySeeSale(person('cashier'), 'cashier@shop.dz')).toBe(true)
    expect(maySeeSale(person('cashier'), 'other@shop.dz')).toBe(false)
    expect(maySeeSale(person('cashier'), null)).toBe(false)
    expect(maySeeSale(person('manager'), 'other@shop.dz')).toBe(true)
    expect(maySeeSale(person('owner'), 'other@shop.dz')).toBe(true)
    expect(maySeeSale({ kind: 'admin' }, 'other@shop.dz')).toBe(true)
  })
})
