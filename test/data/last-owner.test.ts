/**
 * The last owner, on a real SQLite file: a role change or a removal that would leave the store
 * with no owner who can sign in is refused by the statement itself, so two owners demoting (or
 * removing) each other at once leave one owner. The same statements on D1 are in d1.test.ts.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createUser, getUser, removeUser, setRole } from '../../src/data/users.js'
import { openTestDb, T0, type TestDb } from './helpers.js'

let t: TestDb
beforeEach(() => {
  t = openTestDb()
})
afterEach(() => t.cleanup())

const owner = async (email: string) =>
  (await createUser(t.db, { email, name: email, role: 'owner', passwordHash: 'x' }, T0))!.id

describe('the last owner', () => {
  it('of two owners demoting each other at once, exactly one succeeds', async () => {
    const [a, b] = [await owner('a@shop.dz'), await owner('b@shop.dz')]
    const results = await Promise.all([
      setRole(t.db, b, 'cashier', T0 + 1),
      setRole(t.db, a, 'cashier', T0 + 1),
    ])
    expect([...results].sort()).toEqual(['done', 'last_owner'])
    const roles = [(await getUser(t.db, a))!.role, (await getUser(t.db, b))!.role].sort()
    expect(roles).toEqual(['cashier', 'owner'])
  })

  it('of two owners removing each other at once, exactly one succeeds', async () => {
    const [a, b] = [await owner('a@shop.dz'), await owner('b@shop.dz')]
    const results = await Promise.all([removeUser(t.db, b), removeUser(t.db, a)])
    expect([...results].sort()).toEqual(['done', 'last_owner'])
    expect([await getUser(t.db, a), await getUser(t.db, b)].filter(Boolean)).toHaveLength(1)
  })

  it('counts only owners who can sign in, and lets anyone else change or go', async () => {
    const [a, b] = [await owner('a@shop.dz'), await owner('b@shop.dz')]
    t.sqlite.prepare('UPDATE users SET disabled_at = ? WHERE id = ?').run(T0, b)
    expect(await setRole(t.db, a, 'manager', T0)).toBe('last_owner')
    expect(await setRole(t.db, a, 'owner', T0)).toBe('done')
    expect(await setRole(t.db, b, 'viewer', T0)).toBe('done')
    expect(await removeUser(t.db, b)).toBe('done')
    expect(await removeUser(t.db, a)).toBe('last_owner')
    expect(await setRole(t.db, 'usr_none', 'viewer', T0)).toBe('not_found')
    expect(await removeUser(t.db, 'usr_none')).toBe('not_found')
  })
})
