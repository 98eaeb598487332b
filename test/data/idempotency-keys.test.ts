import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import {
  claimIdempotencyKey,
  IDEMPOTENCY_KEY_TTL_MS,
  IDEMPOTENCY_RUN_STALE_MS,
  purgeIdempotencyKeys,
  releaseIdempotencyKey,
  storeIdempotentAnswer,
} from '../../src/data/idempotency-keys.js'
import { openTestDb, T0, type TestDb } from './helpers.js'

let t: TestDb
beforeEach(() => {
  t = openTestDb()
})
afterEach(() => t.cleanup())

const REQUEST = { method: 'POST', path: '/api/v1/links', bodySha256: 'a'.repeat(64) }
const OTHER = { ...REQUEST, bodySha256: 'b'.repeat(64) }
const ANSWER = {
  status: 201,
  headers: [['content-type', 'application/json']] as [string, string][],
  body: new TextEncoder().encode('{"id":"lnk_1"}'),
}

const claim = (attempt: string, now: number, fingerprint = REQUEST) =>
  claimIdempotencyKey(t.db, { credentialId: 'admin', key: 'k1', fingerprint, attempt, now })

describe('idempotency keys', () => {
  it('lets one of concurrent claims hold a key; the others find it running', async () => {
    const claims = await Promise.all(['a1', 'a2', 'a3'].map((a) => claim(a, T0)))
    expect(claims.filter((c) => c.kind === 'claimed')).toHaveLength(1)
    expect(claims.filter((c) => c.kind === 'running')).toHaveLength(2)
  })

  it('keeps the answer of the run holding the key, and lets a released key be claimed again', async () => {
    expect((await claim('a1', T0)).kind).toBe('claimed')
    expect(await storeIdempotentAnswer(t.db, 'admin', 'k1', 'a2', ANSWER)).toBe(false)
    expect(await storeIdempotentAnswer(t.db, 'admin', 'k1', 'a1', ANSWER)).toBe(true)
    const done = await claim('a3', T0 + 1)
    expect(done.kind).toBe('done')
    if (done.kind === 'done')
      expect([done.record.status, done.record.headers, [...(done.record.body ?? [])]]).toEqual([
        201,
        ANSWER.headers,
        [...ANSWER.body],
      ])

    await claimIdempotencyKey(t.db, {
      credentialId: 'admin',
      key: 'k2',
      fingerprint: REQUEST,
      attempt: 'b1',
      now: T0,
    })
    await releaseIdempotencyKey(t.db, 'admin', 'k2', 'b1')
    expect(
      (
        await claimIdempotencyKey(t.db, {
          credentialId: 'admin',
          key: 'k2',
          fingerprint: OTHER,
          attempt: 'b2',
          now: T0,
        })
      ).kind,
    ).toBe('claimed')
  })

  it('lets the same request take over a run stale for five minutes, and no other request', async () => {
    expect((await claim('a1', T0)).kind).toBe('claimed')
    expect((await claim('a2', T0 + IDEMPOTENCY_RUN_STALE_MS - 1)).kind).toBe('running')
    expect((await claim('x', T0 + IDEMPOTENCY_RUN_STALE_MS, OTHER)).kind).toBe('running')
    expect((await claim('a2', T0 + IDEMPOTENCY_RUN_STALE_MS)).kind).toBe('claimed')
    // The run taken over stores nothing over its successor's.
    expect(await storeIdempotentAnswer(t.db, 'admin', 'k1', 'a1', ANSWER)).toBe(false)
    await releaseIdempotencyKey(t.db, 'admin', 'k1', 'a1')
    expect((await claim('a3', T0 + IDEMPOTENCY_RUN_STALE_MS)).kind).toBe('running')
  })

  it('takes over any row after 24 hours, and the sweep removes it', async () => {
    await claim('a1', T0)
    await storeIdempotentAnswer(t.db, 'admin', 'k1', 'a1', ANSWER)
    expect((await claim('b', T0 + IDEMPOTENCY_KEY_TTL_MS - 1, OTHER)).kind).toBe('done')
    expect((await claim('b', T0 + IDEMPOTENCY_KEY_TTL_MS, OTHER)).kind).toBe('claimed')
    expect(await purgeIdempotencyKeys(t.db, T0 + 2 * IDEMPOTENCY_KEY_TTL_MS)).toBe(0)
    expect(await purgeIdempotencyKeys(t.db, T0 + 2 * IDEMPOTENCY_KEY_TTL_MS + 1)).toBe(1)
  })
})
