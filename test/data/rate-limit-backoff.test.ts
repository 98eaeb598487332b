import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { engageBackoff, readRateLimits } from '../../src/data/rate-limits.js'
import { clientKey } from '../../src/security/token-guessing.js'
import { openTestDb, T0, type TestDb } from './helpers.js'

let t: TestDb
beforeEach(() => {
  t = openTestDb()
})
afterEach(() => t.cleanup())

const MIN = 60_000
const durations = { firstMs: 5 * MIN, maxMs: 60 * MIN, memoryMs: 60 * MIN }

describe('engageBackoff', () => {
  it('doubles each time it is engaged again within the memory, up to the maximum', async () => {
    let now = T0
    const lengths: number[] = []
    for (let i = 0; i < 6; i++) {
      const engaged = await engageBackoff(t.db, 'b', now, durations)
      expect(engaged?.level).toBe(i + 1)
      lengths.push(((engaged?.until ?? 0) - now) / MIN)
      now = (engaged?.until ?? 0) + 10 * MIN
    }
    expect(lengths).toEqual([5, 10, 20, 40, 60, 60])
  })

  it('starts again at the first length when engaged long after the last one ended', async () => {
    await engageBackoff(t.db, 'b', T0, durations)
    const second = await engageBackoff(t.db, 'b', T0 + 5 * MIN, durations)
    expect(second).toEqual({ level: 2, until: T0 + 15 * MIN })
    const later = T0 + 15 * MIN + 60 * MIN + 1
    expect(await engageBackoff(t.db, 'b', later, durations)).toEqual({
      level: 1,
      until: later + 5 * MIN,
    })
  })

  it('is engaged once by concurrent callers, and not again while it lasts', async () => {
    const results = await Promise.all(
      [0, 1, 2, 3].map(() => engageBackoff(t.db, 'b', T0, durations)),
    )
    expect(results.filter((r) => r !== null)).toEqual([{ level: 1, until: T0 + 5 * MIN }])
    expect(await engageBackoff(t.db, 'b', T0 + 5 * MIN - 1, durations)).toBeNull()
    const rows = await readRateLimits(t.db, ['b', 'other'])
    expect([...rows.keys()]).toEqual(['b'])
    expect(rows.get('b')).toMatchObject({ windowStart: T0 + 5 * MIN, count: 1 })
  })
})

describe('clientKey', () => {
  it('keeps an IPv4 address whole, mapped or not', () => {
    expect(clientKey('203.0.113.9')).toBe('203.0.113.9')
    expect(clientKey('::ffff:203.0.113.9')).toBe('203.0.113.9')
  })

  it('names an IPv6 address by its /64, however it is written', () => {
    const key = '2001:db8:0:12::/64'
    for (const ip of [
      '2001:db8:0:12::1',
      '2001:0DB8:0000:0012:abcd:ef01:2345:6789',
      '2001:db8::12:0:0:0:1',
      'fe80::1%eth0'.replace('fe80::1', '2001:db8:0:12::9'),
    ])
      expect(clientKey(ip), ip).toBe(key)
    expect(clientKey('2001:db8:0:13::1')).not.toBe(key)
    expect(clientKey('::1')).toBe('0:0:0:0::/64')
  })
})
