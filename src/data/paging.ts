/** Paging shared by the list queries: newest first, by limit/offset or by an opaque cursor. */
import { type SQL, sql } from 'drizzle-orm'
import type { SQLiteColumn } from 'drizzle-orm/sqlite-core'

export const DEFAULT_PAGE_SIZE = 50
export const MAX_PAGE_SIZE = 200

export type PageOptions = {
  limit?: number
  offset?: number
  /** The `nextCursor` of the previous page; takes precedence over `offset`. */
  cursor?: Cursor
}

/** A position in a newest-first list: the last row's creation time and id. */
export type Cursor = { createdAt: number; id: string }

export type Page<T> = { items: T[]; nextCursor: string | null }

const CURSOR = /^(\d{1,15})~([A-Za-z0-9_]{1,64})$/

/** Cursor as opaque text for a query string. */
export function encodeCursor(cursor: Cursor): string {
  return `${cursor.createdAt}~${cursor.id}`
}

/** Reads a cursor from a query string; null when it is not one this API produced. */
export function decodeCursor(text: string): Cursor | null {
  const match = CURSOR.exec(text)
  return match ? { createdAt: Number(match[1]), id: match[2]! } : null
}

/** The page size actually used: at least 1, at most MAX_PAGE_SIZE. */
export function pageSize(limit: number | undefined): number {
  if (limit === undefined || !Number.isFinite(limit)) return DEFAULT_PAGE_SIZE
  return Math.min(Math.max(Math.trunc(limit), 1), MAX_PAGE_SIZE)
}

/** Rows strictly after the cursor in (created_at DESC, id DESC) order. */
export function afterCursor(createdAt: SQLiteColumn, id: SQLiteColumn, cursor: Cursor): SQL {
  // A row value, not `a < x OR (a = x AND b < y)`: SQLite reads this one as a range of the
  // (…, created_at, id) index and starts there; the OR form walks the index from its top.
  return sql`(${createdAt}, ${id}) < (${cursor.createdAt}, ${cursor.id})`
}

/**
 * Builds a page from rows fetched with `limit + 1`: the extra row only tells that another page
 * exists, so no count query is needed.
 */
export function toPage<T extends { createdAt: number; id: string }>(
  rows: T[],
  limit: number,
): Page<T> {
  const items = rows.slice(0, limit)
  const last = items[items.length - 1]
  return {
    items,
    nextCursor:
      rows.length > limit && last ? encodeCursor({ createdAt: last.createdAt, id: last.id }) : null,
  }
}
