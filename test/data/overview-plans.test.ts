/**
 * The overview's query plans (EXPLAIN QUERY PLAN on the SQL drizzle sends, captured as it runs,
 * on a seeded merchant): every statement searches an index over the 30 days, none scans the
 * payments, and the per-day money and outcomes are read from their indexes alone.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { drizzle } from 'drizzle-orm/better-sqlite3'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { seedMerchant } from '../../bench/seed-merchant.js'
import * as schema from '../../db/schema.js'
import type { Db } from '../../src/data/db.js'
import { getOverview } from '../../src/data/overview.js'
import { openSqlite, type SqliteHandle } from '../../src/runtime/node/database.js'

const NOW = Date.UTC(2030, 5, 1)
let dir: string
let handle: SqliteHandle
let captured: { sql: string; params: unknown[] }[] = []
let db: Db

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'paylinks-overview-plans-'))
  const path = join(dir, 'merchant.db')
  seedMerchant(path, 4_000, 40, NOW)
  handle = openSqlite(path)
  const logger = { logQuery: (sql: string, params: unknown[]) => captured.push({ sql, params }) }
  db = drizzle(handle.sqlite, { schema, logger }) as unknown as Db
})

afterAll(() => {
  handle.close()
  rmSync(dir, { recursive: true, force: true })
})

/** Each statement's SQL and its plan, one line per step. */
function plans(): { sql: string; plan: string }[] {
  return captured.map(({ sql, params }) => ({
    sql,
    plan: (
      handle.sqlite.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...(params as never[])) as {
        detail: string
      }[]
    )
      .map((row) => row.detail)
      .join(' ; '),
  }))
}

it('searches an index for every statement and reads money and outcomes from indexes alone', async () => {
  captured = []
  const overview = await getOverview(db, NOW)
  expect(overview.days.some((d) => d.collected > 0)).toBe(true)
  const all = plans()
  expect(all.length).toBe(6)
  for (const { plan } of all) {
    expect(plan).toMatch(/^SEARCH (payments|links) USING (COVERING )?INDEX \w+ \(/)
    expect(plan).not.toMatch(/SCAN/)
  }
  const byPaidAt = all.filter((s) => s.sql.includes('"paid_at" >='))
  expect(byPaidAt).toHaveLength(2)
  for (const { plan } of byPaidAt)
    expect(plan).toMatch(
      /^SEARCH payments USING COVERING INDEX payments_status_paid_at_idx \(status=\? AND paid_at>\? AND paid_at<\?\)/,
    )
  const outcomes = all.find(
    (s) => /"status", count\(\*\)/.test(s.sql) && s.sql.includes('created_at'),
  )
  expect(outcomes?.plan).toMatch(
    /^SEARCH payments USING COVERING INDEX payments_status_created_at_idx \(status=\? AND created_at>\? AND created_at<\?\)/,
  )
})
