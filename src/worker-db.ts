/**
 * drizzle over D1, as the Worker makes it: given no schema, so drizzle builds no relational-query
 * configuration (`db.query.*`), which Paylinks never uses and the upload leaves out (wrangler.toml's
 * [alias], src/worker-drizzle-no-relational.js). Every query names its tables through the SQL-like
 * builder, which needs no schema; `Db`'s type still lists `db.query`, which would throw here.
 */
import type { D1Database } from '@cloudflare/workers-types/index.ts'
import { drizzle } from 'drizzle-orm/d1'
import type { Db } from './data/db.js'

export function d1Db(d1: D1Database): Db {
  return drizzle(d1) as unknown as Db
}
