/**
 * Promo code queries. A code is unique whatever its case (the index on `lower(code)`) and is
 * looked up the same way; its `redeemed_count` and `held_count` are kept by the triggers on
 * payments (migration promo_code_holds), never written here: a redemption is held by the INSERT
 * that starts a payment (src/data/payment-reserve.ts) and counted when the payment is paid.
 */
import { and, desc, eq, sql } from 'drizzle-orm'
import { type PromoCode, promoCodes } from '../../db/schema.js'
import { newPromoCodeId } from '../domain/ids.js'
import type { Db } from './db.js'
import { afterCursor, type Page, type PageOptions, pageSize, toPage } from './paging.js'
import { col } from './sql.js'

/** The columns a merchant sets. Exactly one of `percentOff` and `amountOff` is set. */
export type PromoCodeValues = {
  code: string
  percentOff: number | null
  amountOff: number | null
  minAmount: number | null
  maxRedemptions: number | null
  expiresAt: number | null
  active: boolean
}

export type PromoCodeChanges = Partial<PromoCodeValues>

/** A write's outcome: the code, none with this id, or a code another row has (any case). */
export type PromoCodeWrite =
  | { ok: true; promoCode: PromoCode }
  | { ok: false; kind: 'not_found' | 'code_taken' }

/** Whether an error is the code's unique index refusing a write (D1 wraps it in drizzle's). */
function isCodeConflict(error: unknown): boolean {
  for (let e = error, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const message = String((e as Error).message ?? e)
    if (/UNIQUE constraint failed: index 'promo_codes_code_unique'/.test(message)) return true
  }
  return false
}

/** Creates a promo code with a fresh id; `code_taken` when another has its code in any case. */
export async function createPromoCode(
  db: Db,
  values: PromoCodeValues,
  now: number,
): Promise<PromoCodeWrite> {
  const [row] = await db
    .insert(promoCodes)
    .values({ ...values, id: newPromoCodeId(), createdAt: now, updatedAt: now })
    .onConflictDoNothing()
    .returning()
  // The id is random (16 base62 characters): a conflict is the code's.
  return row ? { ok: true, promoCode: row } : { ok: false, kind: 'code_taken' }
}

/** Changes the given columns of a promo code in one statement. */
export async function updatePromoCode(
  db: Db,
  id: string,
  changes: PromoCodeChanges,
  now: number,
): Promise<PromoCodeWrite> {
  try {
    const [row] = await db
      .update(promoCodes)
      .set({ ...changes, updatedAt: now })
      .where(eq(promoCodes.id, id))
      .returning()
    return row ? { ok: true, promoCode: row } : { ok: false, kind: 'not_found' }
  } catch (error) {
    if (isCodeConflict(error)) return { ok: false, kind: 'code_taken' }
    throw error
  }
}

/** A promo code by id. */
export async function getPromoCode(db: Db, id: string): Promise<PromoCode | null> {
  const [row] = await db.select().from(promoCodes).where(eq(promoCodes.id, id)).limit(1)
  return row ?? null
}

/** A promo code by its text, whatever its case (one SEARCH on the `lower(code)` index). */
export async function findPromoCode(db: Db, code: string): Promise<PromoCode | null> {
  const [row] = await db
    .select()
    .from(promoCodes)
    .where(sql`lower(${col(promoCodes.code)}) = lower(${code})`)
    .limit(1)
  return row ?? null
}

/** Promo codes newest first; `active` filters on the switch. */
export async function listPromoCodes(
  db: Db,
  options: PageOptions & { active?: boolean } = {},
): Promise<Page<PromoCode>> {
  const limit = pageSize(options.limit)
  const where = and(
    options.active === undefined ? undefined : eq(promoCodes.active, options.active),
    options.cursor ? afterCursor(promoCodes.createdAt, promoCodes.id, options.cursor) : undefined,
  )
  const rows = await db
    .select()
    .from(promoCodes)
    .where(where)
    .orderBy(desc(promoCodes.createdAt), desc(promoCodes.id))
    .limit(limit + 1)
    .offset(options.cursor ? 0 : Math.max(0, Math.trunc(options.offset ?? 0)))
  return toPage(rows, limit)
}
