/** Reading the audit log for the owner: newest first, filtered, a page at a time. */
import { and, desc, eq, gte, isNull, lt, type SQL, sql } from 'drizzle-orm'
import { type AuditEntry, auditLog } from '../../db/schema.js'
import type { Db } from './db.js'

/** Who acted: the admin token, or a person's or key's id. */
export type AuditActor = { kind: 'admin' } | { id: string }

export type AuditFilter = {
  /** Only these actions (a group's). */
  actions?: readonly string[]
  actor?: AuditActor
  /** From this instant (inclusive) to that one (exclusive). */
  from?: number
  to?: number
  /** After this entry, in list order (the previous page's last). */
  after?: AuditCursor
}

/** A position in the log: an entry's time and id. */
export type AuditCursor = { at: number; id: number }

const CURSOR = /^(\d{1,15})~(\d{1,15})$/

/** The cursor as text for a query string. */
export function encodeAuditCursor(entry: AuditCursor): string {
  return `${entry.at}~${entry.id}`
}

/** A cursor from a query string; null when it is not one this log gave. */
export function decodeAuditCursor(text: string): AuditCursor | null {
  const m = CURSOR.exec(text)
  return m ? { at: Number(m[1]), id: Number(m[2]) } : null
}

/**
 * Up to `limit` entries, newest first (time, then id). Each filter is served by an index in list
 * order: the actor's (actor_id, at), an action's (action, at) or the time's (at); the cursor is a
 * range of it. A group of actions is read one action at a time and merged here: SQLite cannot
 * read an IN list of an index in the order of its second column, and would sort every match.
 */
export async function listAudit(db: Db, filter: AuditFilter, limit: number): Promise<AuditEntry[]> {
  const actions = filter.actions ? [...new Set(filter.actions)] : undefined
  if (!actions || actions.length === 1)
    return newestFirst(db, conditions(filter, actions?.[0]), limit)
  const each = await Promise.all(
    actions.map((action) => newestFirst(db, conditions(filter, action), limit)),
  )
  return each
    .flat()
    .sort((a, b) => b.at - a.at || b.id - a.id)
    .slice(0, limit)
}

function conditions(filter: AuditFilter, action: string | undefined): SQL[] {
  const where: SQL[] = []
  if (action !== undefined) where.push(eq(auditLog.action, action))
  if (filter.actor) {
    if ('kind' in filter.actor)
      where.push(isNull(auditLog.actorId), eq(auditLog.actorKind, 'admin'))
    else where.push(eq(auditLog.actorId, filter.actor.id))
  }
  if (filter.from !== undefined) where.push(gte(auditLog.at, filter.from))
  if (filter.to !== undefined) where.push(lt(auditLog.at, filter.to))
  if (filter.after)
    // A row value: read as a range of the index the query uses (see paging.ts).
    where.push(sql`(${auditLog.at}, ${auditLog.id}) < (${filter.after.at}, ${filter.after.id})`)
  return where
}

function newestFirst(db: Db, where: SQL[], limit: number): Promise<AuditEntry[]> {
  return db
    .select()
    .from(auditLog)
    .where(where.length > 0 ? and(...where) : undefined)
    .orderBy(desc(auditLog.at), desc(auditLog.id))
    .limit(limit)
}
