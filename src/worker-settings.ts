/**
 * The start's generated settings kept in D1 with one call: D1 bills and waits per call, and on a
 * fresh isolate this read is on the first request's path (docs/decisions/performance.md, "The
 * Worker's cold start"). Same rule as src/data/settings.ts: the first value stored wins.
 */
import type { D1Database } from '@cloudflare/workers-types/index.ts'
import { getTableName } from 'drizzle-orm'
import { settings } from '../db/schema.js'
import type { KeepSettings } from './bootstrap.js'

const table = `"${getTableName(settings)}"`
const key = `"${settings.key.name}"`
const value = `"${settings.value.name}"`
const INSERT = `INSERT INTO ${table} (${key}, ${value}, "${settings.createdAt.name}") VALUES (?, ?, ?) ON CONFLICT DO NOTHING`

const UPSERT = `${INSERT.replace(' ON CONFLICT DO NOTHING', '')} ON CONFLICT (${key}) DO UPDATE SET ${value} = excluded.${value}`

/**
 * `KeepSettings` over D1's binding: each insert-if-absent and the read back in one batch. The
 * settings the configuration decides (`decided`: whether the triggers queue mail) are written in
 * the same batch, over what an earlier start wrote, so they cost the start no call of their own.
 */
export function keepSettingsInD1(
  d1: D1Database,
  decided: ReadonlyArray<readonly [string, string]> = [],
): KeepSettings {
  return async (entries, now) => {
    const places = entries.map(() => '?').join(', ')
    const read = d1
      .prepare(`SELECT ${key} AS k, ${value} AS v FROM ${table} WHERE ${key} IN (${places})`)
      .bind(...entries.map(([k]) => k))
    // A batch is one transaction: two isolates starting at once both read the first one's values.
    const results = await d1.batch([
      ...decided.map(([k, v]) => d1.prepare(UPSERT).bind(k, v, now)),
      ...entries.map(([k, v]) => d1.prepare(INSERT).bind(k, v, now)),
      read,
    ])
    const rows = (results.at(-1)?.results ?? []) as { k: string; v: string }[]
    return entries.map(([k]) => {
      const row = rows.find((r) => r.k === k)
      if (!row) throw new Error(`Setting ${k} vanished between insert and read`)
      return row.v
    })
  }
}
