/**
 * The audit log's and the API keys' query plans (EXPLAIN QUERY PLAN on the SQL drizzle generates,
 * captured as it runs), on a real SQLite file holding 20,000 entries: every filter of the log's
 * page reads an index, and a presented key is found through the unique index of its hash.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { drizzle } from 'drizzle-orm/better-sqlite3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import * as schema from '../../db/schema.js'
import { findUsableKey } from '../../src/data/api-keys.js'
import { type AuditFilter, listAudit } from '../../src/data/audit-read.js'
import type { Db } from '../../src/data/db.js'
import { ALL_AUDIT_ACTIONS, AUDIT_ACTIONS } from '../../src/domain/audit-actions.js'
import { openSqlite, type SqliteHandle } from '../../src/runtime/node/database.js'

const NOW = Date.UTC(2030, 5, 1)
const DAY = 86_400_000
let dir: string
let handle: SqliteHandle
let captured: { sql: string; params: unknown[] }[] = []
let db: Db

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'paylinks-audit-plans-'))
  handle = openSqlite(join(dir, 'audit.db'))
  const insert = handle.sqlite.prepare(
    `INSERT INTO audit_log (at, actor_kind, actor_id, actor_label, action, address)
     VALUES (?, ?, ?, ?, ?, '203.0.113.5')`,
  )
  handle.sqlite.transaction(() => {
    for (let i = 0; i < 20_000; i++) {
      const actor = i % 7 === 0 ? null : `key_${i % 40}`
      insert.run(
        NOW - i * 60_000,
        actor ? 'key' : 'admin',
        actor,
        actor ?? 'admin token',
        ALL_AUDIT_ACTIONS[i % ALL_AUDIT_ACTIONS.length],
      )
    }
  })()
  const logger = { logQuery: (sql: string, params: unknown[]) => captured.push({ sql, params }) }
  db = drizzle(handle.sqlite, { schema, logger }) as unknown as Db
})

afterAll(() => {
  handle.close()
  rmSync(dir, { recursive: true, force: true })
})

async function plansOf(query: () => Promise<unknown>): Promise<string[]> {
  captured = []
  await query()
  expect(captured.length).toBeGreaterThan(0)
  return captured.map(({ sql, params }) =>
    (
      handle.sqlite.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...(params as never[])) as {
        detail: string
      }[]
    )
      .map((row) => row.detail)
      .join(' ; '),
  )
}

const after = { at: NOW - 5 * DAY, id: 15_000 }

describe('the audit log', () => {
  it('unfiltered walks the time index, no sort', async () => {
    const [plan] = await plansOf(() => listAudit(db, {}, 51))
    expect(plan).toBe('SCAN audit_log USING INDEX audit_log_at_idx')
  })

  const filtered: [string, AuditFilter, RegExp][] = [
    ['the next page', { after }, /^SEARCH audit_log USING INDEX audit_log_at_idx \(/],
    [
      'a date range',
      { from: NOW - 3 * DAY, to: NOW - DAY },
      /^SEARCH audit_log USING INDEX audit_log_at_idx \(at>\? AND at<\?\)/,
    ],
    [
      'an actor',
      { actor: { id: 'key_7' } },
      /^SEARCH audit_log USING INDEX audit_log_actor_idx \(actor_id=\?\)/,
    ],
    [
      'an actor, next page',
      { actor: { id: 'key_7' }, after },
      /^SEARCH audit_log USING INDEX audit_log_actor_idx \(actor_id=\? AND /,
    ],
    [
      'the admin token',
      { actor: { kind: 'admin' } },
      /^SEARCH audit_log USING INDEX audit_log_actor_idx \(actor_id=\?\)/,
    ],
    [
      'a group',
      { actions: AUDIT_ACTIONS.links },
      /^SEARCH audit_log USING INDEX audit_log_action_idx \(action=\?\)/,
    ],
    [
      'a group, next page',
      { actions: AUDIT_ACTIONS.access, after },
      /^SEARCH audit_log USING INDEX audit_log_action_idx \(action=\? AND /,
    ],
    [
      'a group and an actor',
      { actions: AUDIT_ACTIONS.links, actor: { id: 'key_7' } },
      /^SEARCH audit_log USING INDEX audit_log_(action|actor)_idx \((action|actor_id)=\?/,
    ],
    [
      'a group and dates',
      { actions: AUDIT_ACTIONS.keys, from: NOW - 3 * DAY, to: NOW - DAY },
      /^SEARCH audit_log USING INDEX audit_log_action_idx \(action=\? AND at>\? AND at<\?\)/,
    ],
  ]
  for (const [what, filter, expected] of filtered) {
    it(`filtered by ${what} searches an index in list order, no sort`, async () => {
      for (const plan of await plansOf(() => listAudit(db, filter, 51))) {
        expect(plan).toMatch(expected)
        expect(plan).not.toMatch(/TEMP B-TREE/)
      }
    })
  }

  it('with a group lists the same entries, in order, as a full read filtered by hand', async () => {
    const wanted = new Set<string>(AUDIT_ACTIONS.webhooks)
    const all = (
      handle.sqlite.prepare('SELECT id, action FROM audit_log ORDER BY at DESC, id DESC').all() as {
        id: number
        action: string
      }[]
    ).filter((r) => wanted.has(r.action))
    const seen: number[] = []
    let cursor: AuditFilter['after']
    for (;;) {
      const rows = await listAudit(
        db,
        { actions: AUDIT_ACTIONS.webhooks, ...(cursor ? { after: cursor } : {}) },
        200,
      )
      seen.push(...rows.map((r) => r.id))
      const last = rows.at(-1)
      if (rows.length < 200 || !last) break
      cursor = { at: last.at, id: last.id }
    }
    expect(all.length).toBeGreaterThan(1_000)
    expect(seen).toEqual(all.map((r) => r.id))
  })
})

describe('API keys', () => {
  it('finds a presented key through the unique index of its hash', async () => {
    const plans = await plansOf(() => findUsableKey(db, 'ab'.repeat(32)))
    expect(plans[0]).toMatch(/SEARCH api_keys USING INDEX api_keys_key_hash_unique \(key_hash=\?\)/)
    expect(plans[0]).toMatch(/SEARCH users USING INDEX sqlite_autoindex_users_1 \(id=\?\)/)
  })
})
