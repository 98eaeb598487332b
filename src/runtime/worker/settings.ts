/**
 * The start's generated settings kept in D1 with one call on every start but the first: D1 bills
 * and waits per call (and per row written), and on a fresh isolate this read is on the first
 * request's path (docs/decisions/performance.md, "The
 * Worker's cold start"). Same rule as src/data/settings.ts: the first value stored wins.
 */
import type { D1Database } from '@cloudflare/workers-types/index.ts'
import { getTableName } from 'drizzle-orm'
import { settings } from '../../../db/schema.js'
import type { KeepSettings } from '../../app/assemble.js'

const table = `"${getTableName(settings)}"`
const key = `"${settings.key.name}"`
const value = `"${settings.value.name}"`
const INSERT = `INSERT INTO ${table} (${key}, ${value}, "${settings.createdAt.name}") VALUES (?, ?, ?) ON CONFLICT DO NOTHING`

const UPSERT = `${INSERT.replace(' ON CONFLICT DO NOTHING', '')} ON CONFLICT (${key}) DO UPDATE SET ${value} = excluded.${value}`

/**
 * `KeepSettings` over D1's binding. Every start after the first finds its settings stored: one
 * read of every key it keeps or decides, and no write (a read needs no write transaction, and D1
 * can answer it from a replica). Otherwise each insert-if-absent and the read back go in one batch;
 * the settings the configuration decides (`decided`: whether the triggers queue mail) are written
 * in the same batch, over what an earlier start wrote, so they cost the start no call of their own.
 */
export function keepSettingsInD1(
  d1: D1Database,
  decided: ReadonlyArray<readonly [string, string]> = [],
): KeepSettings {
  const select = (keys: readonly string[]) =>
    d1
      .prepare(
        `SELECT ${key} AS k, ${value} AS v FROM ${table} WHERE ${key} IN (${keys.map(() => '?').join(', ')})`,
      )
      .bind(...keys)
  const valuesOf = (
    rows: readonly { k: string; v: string }[],
    entries: ReadonlyArray<readonly [string, string]>,
  ) => entries.map(([k]) => rows.find((r) => r.k === k)?.v)
  return async (entries, now) => {
    const { results: stored } = await select([...decided, ...entries].map(([k]) => k)).all<{
      k: string
      v: string
    }>()
    const current = valuesOf(stored, entries)
    const decidedKept = valuesOf(stored, decided).every((v, i) => v === decided[i]![1])
    if (decidedKept && current.every((v) => v !== undefined)) return current as string[]
    // A batch is one transaction: two isolates starting at once both read the first one's values.
    const results = await d1.batch([
      ...decided.map(([k, v]) => d1.prepare(UPSERT).bind(k, v, now)),
      ...entries.map(([k, v]) => d1.prepare(INSERT).bind(k, v, now)),
      select(entries.map(([k]) => k)),
    ])
    const rows = (results.at(-1)?.results ?? []) as { k: string; v: string }[]
    return valuesOf(rows, entries).map((v, i) => {
      if (v === undefined)
        throw new Error(`Setting ${entries[i]![0]} vanished between insert and read`)
      return v
    })
  }
}
