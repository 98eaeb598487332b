/**
 * Prepared queries, built once per database handle and reused with placeholders by the hot paths
 * (docs/decisions/performance.md, "Queries prepared once").
 */
import type { Db } from './db.js'

const byDb = new WeakMap<Db, Map<string, unknown>>()

/** The prepared query named `key` for this handle, built by `build` on first use. */
export function prepared<T>(db: Db, key: string, build: (db: Db) => T): T {
  let queries = byDb.get(db)
  if (!queries) {
    queries = new Map()
    byDb.set(db, queries)
  }
  let query = queries.get(key) as T | undefined
  if (query === undefined) {
    query = build(db)
    queries.set(key, query)
  }
  return query
}
