/**
 * The till's reads: a cashier's open sale, one sale (its link and its payment), a day's sales for
 * the shift report. A sale is a link made by the till (`links.source = 'till'`), for one payment.
 */
import { and, desc, eq, gt, gte, inArray, isNull, lt, or, sql } from 'drizzle-orm'
import { links, type Payment, payments } from '../../db/schema.js'
import type { Db } from './db.js'
import type { LinkWithStats } from './links.js'
import { getSetting } from './settings.js'

/** The settings key of the till links' lifetime in minutes. */
export const TILL_LINK_MINUTES_KEY = 'till_link_minutes'

/** The stored `till_link_minutes`, as text (read with tillLinkMinutes). */
export function readTillLinkMinutes(db: Db): Promise<string | null> {
  return getSetting(db, TILL_LINK_MINUTES_KEY)
}

/** The settings key of the till's preset items (JSON, see readPresets). */
export const TILL_PRESETS_KEY = 'till_presets'

/** The stored preset items, as JSON text. */
export function readTillPresets(db: Db): Promise<string | null> {
  return getSetting(db, TILL_PRESETS_KEY)
}

/** A till link and the payment it shows (the paid one, else the latest; null before any). */
export type Sale = { link: LinkWithStats; payment: Payment | null }

/** The sale of a till link by id; null for another kind of link or none. */
export async function getSale(db: Db, linkId: string): Promise<Sale | null> {
  const [link] = await db
    .select()
    .from(links)
    .where(and(eq(links.id, linkId), eq(links.source, 'till')))
    .limit(1)
  if (!link) return null
  const [payment] = await db
    .select()
    .from(payments)
    .where(eq(payments.linkId, linkId))
    .orderBy(sql`${payments.status} = 'paid' DESC`, desc(payments.createdAt), desc(payments.id))
    .limit(1)
  return { link, payment: payment ?? null }
}

/**
 * The cashier's open sale: their latest till link that is on, not paid, and not expired (or with a
 * payment still on the card page). What a reload of the till comes back to.
 */
export async function openSaleOf(db: Db, createdBy: string, now: number): Promise<Sale | null> {
  const [link] = await db
    .select({ id: links.id })
    .from(links)
    .where(
      and(
        eq(links.source, 'till'),
        eq(links.createdBy, createdBy),
        eq(links.active, true),
        eq(links.paidCount, 0),
        or(isNull(links.expiresAt), gt(links.expiresAt, now), gt(links.inFlightCount, 0)),
      ),
    )
    .orderBy(desc(links.createdAt), desc(links.id))
    .limit(1)
  return link ? getSale(db, link.id) : null
}

/** Till sales whose link was made in [from, to), oldest first, each with its payment. */
export async function salesBetween(db: Db, from: number, to: number): Promise<Sale[]> {
  const rows = await db
    .select()
    .from(links)
    .where(and(eq(links.source, 'till'), gte(links.createdAt, from), lt(links.createdAt, to)))
    .orderBy(links.createdAt, links.id)
  if (rows.length === 0) return []
  const shown = new Map<string, Payment>()
  // In chunks: D1 takes at most 100 bound parameters a statement.
  for (let i = 0; i < rows.length; i += 90) {
    const ids = rows.slice(i, i + 90).map((l) => l.id)
    const found = await db
      .select()
      .from(payments)
      .where(inArray(payments.linkId, ids))
      .orderBy(payments.createdAt, payments.id)
    for (const p of found) {
      const current = shown.get(p.linkId)
      // The paid payment, else the latest (rows come oldest first).
      if (current?.status !== 'paid') shown.set(p.linkId, p)
    }
  }
  return rows.map((link) => ({ link, payment: shown.get(link.id) ?? null }))
}
