/** SQL helpers for statements drizzle's builder cannot express. */
import { getTableName, type SQL, sql } from 'drizzle-orm'
import type { AnySQLiteColumn } from 'drizzle-orm/sqlite-core'

/**
 * A column as `"table"."column"`. Drizzle prints bare column names in single-table statements,
 * which inside a correlated subquery would bind to the inner table (`id` of payments instead of
 * links), so subqueries name their columns in full.
 */
export function col(column: AnySQLiteColumn): SQL {
  return sql`${sql.identifier(getTableName(column.table))}.${sql.identifier(column.name)}`
}

/** `column IN (…)` with each value bound, fully qualified. */
export function colIn(column: AnySQLiteColumn, values: readonly string[]): SQL {
  return sql`${col(column)} IN (${sql.join(
    values.map((v) => sql`${v}`),
    sql`, `,
  )})`
}
