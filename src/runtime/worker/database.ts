/**
 * drizzle over D1, as the Worker makes it: given no schema, so drizzle builds no relational-query
 * configuration (`db.query.*`), which Paylinks never uses, as the isolate starts. Every query
 * names its tables through the SQL-like builder, which needs no schema; `Db`'s type still lists
 * `db.query`, which holds no table here.
 */
import type { D1Database } from '@cloudflare/workers-types/index.ts'
import { drizzle } from 'drizzle-orm/d1'
import type { Db } from '../../data/db.js'

export function d1Db(d1: D1Database): Db {
  return drizzle(d1) as unknown as Db
}

/** The Worker's database: its D1 binding through drizzle (Node's is a SQLite file). */
export function openDatabase(env: { DB: D1Database }): Db {
  return d1Db(env.DB)
}
