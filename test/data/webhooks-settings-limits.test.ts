import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { markInboxEvent, recordInboxEvent } from '../../src/data/gateway-inbox.js'
import { hitRateLimit, purgeRateLimits } from '../../src/data/rate-limits.js'
import { getSetting, setSettingIfAbsent } from '../../src/data/settings.js'
import { runContenders } from './contenders.js'
import { openTestDb, T0, type TestDb } from './helpers.js'

let t: TestDb
beforeEach(() => {
  t = openTestDb()
})
afterEach(() => t.cleanup())

const delivery = (key: string) => ({
  dedupeKey: key,
  cibTransactionId: '4172711',
  paymentStatus: 'success',
  payload: '{"event":"cib.payment.updated"}',
})

describe('webhook events', () => {
  it('records a delivery once and recognises its redelivery', async () => {
    const first = await recordInboxEvent(t.db, delivery('k1'), T0)
    expect(first.isNew).toBe(true)
    expect(first.event).toMatchObject({
      id: expect.stringMatching(/^evt_/),
      status: 'received',
      attempts: 0,
      receivedAt: T0,
      payload: '{"event":"cib.payment.updated"}',
    })
    const again = await recordInboxEvent(t.db, delivery('k1'), T0 + 5)
    expect(again).toEqual({ isNew: false, event: first.event })
    expect((await recordInboxEvent(t.db, delivery('k2'), T0)).isNew).toBe(true)
  })

  it('marks the processing result, counts attempts and keeps the last error', async () => {
    const { event } = await recordInboxEvent(t.db, delivery('k1'), T0)
    const failed = await markInboxEvent(
      t.db,
      event.id,
      { status: 'failed', paymentId: 'pay_1', error: 'check timed out' },
      T0 + 1,
    )
    expect(failed).toMatchObject({ status: 'failed', attempts: 1, lastError: 'check timed out' })
    const done = await markInboxEvent(t.db, event.id, { status: 'processed' }, T0 + 2)
    expect(done).toMatchObject({
      status: 'processed',
      attempts: 2,
      lastError: null,
      paymentId: 'pay_1',
      processedAt: T0 + 2,
    })
    // A redelivery after processing shows how far the first one got.
    expect((await recordInboxEvent(t.db, delivery('k1'), T0 + 3)).event.status).toBe('processed')
  })
})

describe('settings', () => {
  it('keeps the first value stored and returns it to later callers', async () => {
    expect(await getSetting(t.db, 'session_secret')).toBeNull()
    expect(await setSettingIfAbsent(t.db, 'session_secret', 'first', T0)).toBe('first')
    expect(await setSettingIfAbsent(t.db, 'session_secret', 'second', T0 + 1)).toBe('first')
    expect(await getSetting(t.db, 'session_secret')).toBe('first')
  })

  it('lets two processes starting at once agree on one generated value', async () => {
    const results = await runContenders(t.path, [
      { kind: 'setting', key: 'admin_token_hash', value: 'from-a', now: T0 },
      { kind: 'setting', key: 'admin_token_hash', value: 'from-b', now: T0 },
    ])
    expect(['from-a', 'from-b']).toContain(results[0])
    expect(results[1]).toBe(results[0])
    expect(await getSetting(t.db, 'admin_token_hash')).toBe(results[0])
  })
})

describe('hitRateLimit', () => {
  const MIN = 60_000
  const W0 = Math.floor(T0 / MIN) * MIN

  it('allows `limit` hits in a window, then refuses until the next window', async () => {
    const hit = (now: number) => hitRateLimit(t.db, 'checkout:1.2.3.4', 3, MIN, now)
    expect(await hit(W0 + 1)).toEqual({ allowed: true, remaining: 2, resetAt: W0 + MIN })
    expect(await hit(W0 + 2)).toEqual({ allowed: true, remaining: 1, resetAt: W0 + MIN })
    expect(await hit(W0 + 3)).toEqual({ allowed: true, remaining: 0, resetAt: W0 + MIN })
    expect(await hit(W0 + MIN - 1)).toEqual({ allowed: false, remaining: 0, resetAt: W0 + MIN })
    expect(await hit(W0 + MIN)).toEqual({ allowed: true, remaining: 2, resetAt: W0 + 2 * MIN })
  })

  it('counts each key on its own', async () => {
    await hitRateLimit(t.db, 'a', 1, MIN, W0)
    expect((await hitRateLimit(t.db, 'a', 1, MIN, W0)).allowed).toBe(false)
    expect((await hitRateLimit(t.db, 'b', 1, MIN, W0)).allowed).toBe(true)
  })

  it('keeps counting in the newer window when a caller with a late clock hits', async () => {
    await hitRateLimit(t.db, 'k', 2, MIN, W0 + MIN)
    // A process whose clock is behind still counts against the current window.
    expect(await hitRateLimit(t.db, 'k', 2, MIN, W0 + MIN - 10)).toEqual({
      allowed: true,
      remaining: 0,
      resetAt: W0 + 2 * MIN,
    })
    expect((await hitRateLimit(t.db, 'k', 2, MIN, W0 + MIN + 5)).allowed).toBe(false)
  })

  it('purges counters of windows long past', async () => {
    await hitRateLimit(t.db, 'old', 5, MIN, W0)
    await hitRateLimit(t.db, 'new', 5, MIN, W0 + 3 * MIN)
    expect(await purgeRateLimits(t.db, W0 + 3 * MIN, MIN)).toBe(1)
    expect((await hitRateLimit(t.db, 'new', 5, MIN, W0 + 3 * MIN)).remaining).toBe(3)
  })
})
