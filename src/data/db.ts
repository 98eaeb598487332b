/** The database handle every query takes: drizzle over better-sqlite3 (Node) or D1 (Workers). */
import type { BaseSQLiteDatabase } from 'drizzle-orm/sqlite-core'
import type * as schema from '../../db/schema.js'

export type Schema = typeof schema

/**
 * Accepts both `drizzle(betterSqlite3, { schema })` ('sync') and `drizzle(d1, { schema })`
 * ('async'). Queries always `await`, which works for both result kinds.
 */
// biome-ignore lint/suspicious/noExplicitAny: the run-result type differs per driver and is never read.
export type Db = BaseSQLiteDatabase<'sync' | 'async', any, Schema>
