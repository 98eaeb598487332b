import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { purgeSpentTokens, spendToken } from '../../src/data/spent-tokens.js'
import { openTestDb, T0, type TestDb } from './helpers.js'

let t: TestDb
beforeEach(() => {
  t = openTestDb()
})
afterEach(() => t.cleanup())

const MIN = 60_000

describe('spent tokens', () => {
  it('spends a key once; a second spend, concurrent or later, is refused', async () => {
    const spends = await Promise.all([1, 2, 3].map(() => spendToken(t.db, 'altcha:x', T0 + MIN)))
    expect(spends.filter(Boolean)).toHaveLength(1)
    expect(await spendToken(t.db, 'altcha:x', T0 + 2 * MIN)).toBe(false)
    expect(await spendToken(t.db, 'altcha:y', T0 + MIN)).toBe(true)
  })

  it('keeps a key until a minute after it expires, then purges it', async () => {
    await spendToken(t.db, 'a', T0 + 30 * MIN)
    await spendToken(t.db, 'b', T0 + 60 * MIN)
    expect(await purgeSpentTokens(t.db, T0 + 31 * MIN)).toBe(0)
    expect(await spendToken(t.db, 'a', T0 + 30 * MIN)).toBe(false)
    expect(await purgeSpentTokens(t.db, T0 + 31 * MIN + 1)).toBe(1)
    expect(await spendToken(t.db, 'b', T0 + 60 * MIN)).toBe(false)
    expect(await spendToken(t.db, 'a', T0 + 30 * MIN)).toBe(true)
  })
})
