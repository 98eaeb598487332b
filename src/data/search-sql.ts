/**
 * The search condition of the payments and links lists: the rows the FTS5 trigram index
 * (migration 0009) finds, as a `rowid IN (…)` that the rest of the list query pages like any filter.
 */
import { type SQL, sql } from 'drizzle-orm'
import type { Db } from './db.js'
import type { SearchTerm } from './search.js'

/**
 * Up to this many matches, a list is read from the matches (fetched by rowid, then sorted); with
 * more, it is read in its own index order, keeping the matching rows, and stops after a page.
 * Sorting costs about 2 µs a match and walking the index about 0.1 µs a row, so a common name
 * (8,700 of 100,000 payments) no longer sorts 8,700 rows, and a rare phone reads three rows.
 */
export const FEW_MATCHES = 500

const INDEX = { payments: 'payments_search', links: 'links_search' } as const
type Searched = keyof typeof INDEX

/** How many rows match, counted up to FEW_MATCHES + 1 (the index alone, no table row read). */
async function matchesBeyond(db: Db, table: Searched, match: string): Promise<boolean> {
  const index = sql.identifier(INDEX[table])
  const rows = (await db.all(
    sql`SELECT count(*) AS n FROM (SELECT rowid FROM ${index} WHERE ${index} MATCH ${match} LIMIT ${FEW_MATCHES + 1})`,
  )) as { n: number }[]
  return Number(rows[0]?.n ?? 0) > FEW_MATCHES
}

/** `table`'s rows the index finds for `term`, plus the row with its exact id when the text is one. */
async function searchCondition(db: Db, table: Searched, term: SearchTerm): Promise<SQL> {
  const index = sql.identifier(INDEX[table])
  const name = sql.identifier(table)
  let hits = sql`SELECT rowid FROM ${index} WHERE ${index} MATCH ${term.match}`
  if (table === 'payments' && term.exactId) {
    const column = sql.identifier(term.exactId.column === 'id' ? 'id' : 'receipt_id')
    hits = sql`${hits} UNION SELECT exact.rowid FROM ${name} AS exact WHERE exact.${column} = ${term.exactId.value}`
  }
  // The unary `+` keeps SQLite from reading the list by rowid: the list's own index drives it.
  const many = await matchesBeyond(db, table, term.match)
  return many ? sql`+${name}.rowid IN (${hits})` : sql`${name}.rowid IN (${hits})`
}

/** The payments whose customer, phone, e-mail, order number, transaction id or reference match. */
export function paymentSearch(db: Db, term: SearchTerm): Promise<SQL> {
  return searchCondition(db, 'payments', term)
}

/** The links whose title matches. */
export function linkSearch(db: Db, term: SearchTerm): Promise<SQL> {
  return searchCondition(db, 'links', term)
}
