/**
 * The inbox rows the reconciler finishes (src/data/gateway-inbox.ts `listInboxDue`, `claimInboxEvent`)
 * on a real SQLite file: which rows are due and when, that they are read through the partial index
 * of rows still to process, and that a row is taken once.
 */
import { drizzle } from 'drizzle-orm/better-sqlite3'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import * as schema from '../../db/schema.js'
import type { Db } from '../../src/data/db.js'
import {
  claimInboxEvent,
  INTERRUPTED,
  listInboxDue,
  markInboxEvent,
  recordInboxEvent,
} from '../../src/data/gateway-inbox.js'
import {
  INBOX_MAX_ATTEMPTS,
  INBOX_REPLAY_GRACE_MS,
  INBOX_RETRY_DELAYS_MS,
} from '../../src/domain/check-schedule.js'
import { openTestDb, T0, type TestDb } from './helpers.js'

let t: TestDb
beforeEach(() => {
  t = openTestDb()
})
afterEach(() => t.cleanup())

function record(key: string, status: 'received' | 'processed' | 'ignored', at = T0) {
  return recordInboxEvent(
    t.db,
    { dedupeKey: key, cibTransactionId: key, paymentStatus: 'success', payload: '{}', status },
    at,
  )
}

const ids = async (now: number, receivedBy?: number) =>
  (await listInboxDue(t.db, now, { limit: 50, ...(receivedBy ? { receivedBy } : {}) })).map(
    (e) => e.dedupeKey,
  )

describe('inbox rows due for the reconciler', () => {
  it('are the received ones past the grace period, oldest first, never the processed or ignored', async () => {
    await record('late', 'received', T0 + 1000)
    await record('early', 'received', T0)
    await record('done', 'processed', T0)
    await record('nobody', 'ignored', T0)
    expect(await ids(T0 + INBOX_REPLAY_GRACE_MS - 1)).toEqual([])
    expect(await ids(T0 + INBOX_REPLAY_GRACE_MS)).toEqual(['early'])
    expect(await ids(T0 + INBOX_REPLAY_GRACE_MS + 1000)).toEqual(['early', 'late'])
    // At a start, every row recorded before it is due at once.
    expect(await ids(T0 + 2000, T0 + 2000)).toEqual(['early', 'late'])
  })

  it('are failed ones after the backoff of their attempts, until the attempts run out', async () => {
    const { event } = await record('flaky', 'received')
    let now = T0 + INBOX_REPLAY_GRACE_MS
    for (let attempt = 1; attempt < INBOX_MAX_ATTEMPTS; attempt++) {
      const [due] = await listInboxDue(t.db, now, { limit: 50 })
      expect(due?.attempts).toBe(attempt - 1)
      expect(await claimInboxEvent(t.db, due!, now)).toBe(true)
      await markInboxEvent(t.db, event.id, { status: 'failed', error: 'down' }, now, true)
      const wait = INBOX_RETRY_DELAYS_MS[attempt - 1] ?? INBOX_RETRY_DELAYS_MS.at(-1)!
      expect(await ids(now + wait - 1)).toEqual([])
      now += wait
    }
    const [last] = await listInboxDue(t.db, now, { limit: 50 })
    expect(last?.attempts).toBe(INBOX_MAX_ATTEMPTS - 1)
    await claimInboxEvent(t.db, last!, now)
    // The last attempt taken: the row stays failed, and is never due again.
    expect(await ids(now + 365 * 86_400_000)).toEqual([])
    const [row] = await t.db.select().from(schema.webhookEvents)
    expect(row).toMatchObject({ status: 'failed', attempts: INBOX_MAX_ATTEMPTS })
  })

  it('are read through the partial index of rows still to process, without a sort', async () => {
    const captured: { sql: string; params: unknown[] }[] = []
    const logger = { logQuery: (sql: string, params: unknown[]) => captured.push({ sql, params }) }
    const logged = drizzle(t.sqlite, { schema, logger }) as unknown as Db
    await listInboxDue(logged, T0, { limit: 50 })
    const [query] = captured
    const plan = t.sqlite
      .prepare(`EXPLAIN QUERY PLAN ${query!.sql}`)
      .all(...(query!.params as never[]))
    const details = (plan as { detail: string }[]).map((r) => r.detail).join(' ; ')
    expect(details).toContain('USING INDEX webhook_events_unsettled_idx')
    expect(details).not.toContain('TEMP B-TREE')
  })
})

describe('taking an inbox row', () => {
  it('counts the attempt and leaves it failed until its result is marked', async () => {
    const { event } = await record('one', 'received')
    expect(await claimInboxEvent(t.db, event, T0 + 5)).toBe(true)
    const [row] = await t.db.select().from(schema.webhookEvents)
    expect(row).toMatchObject({ status: 'failed', attempts: 1, lastError: INTERRUPTED })
    await markInboxEvent(t.db, event.id, { status: 'processed', paymentId: null }, T0 + 6, true)
    const [after] = await t.db.select().from(schema.webhookEvents)
    expect(after).toMatchObject({ status: 'processed', attempts: 1, lastError: null })
  })

  it('takes it once, and not after the request processed it meanwhile', async () => {
    const { event } = await record('raced', 'received')
    expect(
      await Promise.all([claimInboxEvent(t.db, event, T0), claimInboxEvent(t.db, event, T0)]),
    ).toEqual([true, false])
    const { event: other } = await record('finished', 'received')
    await markInboxEvent(t.db, other.id, { status: 'processed' }, T0)
    expect(await claimInboxEvent(t.db, other, T0)).toBe(false)
  })
})
