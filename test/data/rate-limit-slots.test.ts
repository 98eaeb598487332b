/** Slots taken before the work they guard: at most the limit at once, given back when no guess. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import {
  giveBackRateLimitSlot,
  type RateLimitSlot,
  readRateLimits,
  takeRateLimitSlot,
} from '../../src/data/rate-limits.js'
import { openTestDb, T0, type TestDb } from './helpers.js'

let t: TestDb
beforeEach(() => {
  t = openTestDb()
})
afterEach(() => t.cleanup())

const MIN = 60_000
const WINDOW = 5 * MIN
const start = T0 - (T0 % WINDOW)
const isSlot = (r: Awaited<ReturnType<typeof takeRateLimitSlot>>): r is RateLimitSlot =>
  !('refused' in r)

describe('takeRateLimitSlot', () => {
  it('gives 10 of 80 concurrent callers a slot, and counts none of the refused', async () => {
    const results = await Promise.all(
      Array.from({ length: 80 }, () => takeRateLimitSlot(t.db, 'k', 10, WINDOW, T0)),
    )
    const slots = results.filter(isSlot)
    expect(slots).toHaveLength(10)
    expect(slots.map((s) => s.count).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10])
    for (const refused of results.filter((r) => !isSlot(r)))
      expect(refused).toEqual({ refused: true, resetAt: start + WINDOW })
    expect((await readRateLimits(t.db, ['k'])).get('k')?.count).toBe(10)
  })

  it('takes a given-back slot again, and gives back only to the window it was taken in', async () => {
    const first = await takeRateLimitSlot(t.db, 'k', 2, WINDOW, T0)
    const second = await takeRateLimitSlot(t.db, 'k', 2, WINDOW, T0)
    expect(isSlot(first) && isSlot(second)).toBe(true)
    expect(isSlot(await takeRateLimitSlot(t.db, 'k', 2, WINDOW, T0))).toBe(false)
    await giveBackRateLimitSlot(t.db, first as RateLimitSlot)
    expect(isSlot(await takeRateLimitSlot(t.db, 'k', 2, WINDOW, T0))).toBe(true)
    // The next window starts over; a slot of the last one owes it nothing.
    const later = await takeRateLimitSlot(t.db, 'k', 2, WINDOW, T0 + WINDOW)
    expect(later).toMatchObject({ windowStart: start + WINDOW, count: 1 })
    await giveBackRateLimitSlot(t.db, second as RateLimitSlot)
    expect((await readRateLimits(t.db, ['k'])).get('k')?.count).toBe(1)
  })

  it('keeps counting a window a clock slightly ahead opened', async () => {
    await takeRateLimitSlot(t.db, 'k', 1, WINDOW, T0 + WINDOW)
    const behind = await takeRateLimitSlot(t.db, 'k', 1, WINDOW, T0)
    expect(behind).toEqual({ refused: true, resetAt: start + 2 * WINDOW })
  })
})
