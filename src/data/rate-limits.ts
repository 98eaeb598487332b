/** A fixed-window rate limiter kept in the database, so it holds across Node processes and Workers isolates. */
import { and, eq, gt, inArray, lt, sql } from 'drizzle-orm'
import { rateLimits } from '../../db/schema.js'
import type { Db } from './db.js'

export type RateLimitResult = { allowed: boolean; remaining: number; resetAt: number }

/**
 * Counts one hit on `key` in the current window of `windowMs` (windows are aligned on multiples
 * of `windowMs`) and tells whether it is within `limit`. One upsert: concurrent hits each count.
 */
export async function hitRateLimit(
  db: Db,
  key: string,
  limit: number,
  windowMs: number,
  now: number,
): Promise<RateLimitResult> {
  const windowStart = now - (now % windowMs)
  // A stored window at or after this one (another clock slightly ahead) keeps counting; an
  // older one starts over. SET expressions read the row as it was before the update.
  const [row] = await db
    .insert(rateLimits)
    .values({ key, windowStart, count: 1 })
    .onConflictDoUpdate({
      target: rateLimits.key,
      set: {
        count: sql`CASE WHEN ${rateLimits.windowStart} >= excluded.window_start
          THEN ${rateLimits.count} + 1 ELSE 1 END`,
        windowStart: sql`max(${rateLimits.windowStart}, excluded.window_start)`,
      },
    })
    .returning()
  const count = row?.count ?? 1
  const start = row?.windowStart ?? windowStart
  return {
    allowed: count <= limit,
    remaining: Math.max(0, limit - count),
    resetAt: start + windowMs,
  }
}

/**
 * A slot taken in a window: `windowStart` names the window, to give the slot back to it; `count`
 * is how many the window had taken with this one.
 */
export type RateLimitSlot = { key: string; windowStart: number; count: number }

/**
 * Takes one of the `limit` slots of `key` in the current window, before the work it guards, or
 * refuses when all are taken. One conditional upsert: of any number of concurrent callers, at
 * most `limit` get a slot, and a refused caller counts nothing. A window at or after this one
 * (another clock slightly ahead) keeps counting; an older one starts over.
 */
export async function takeRateLimitSlot(
  db: Db,
  key: string,
  limit: number,
  windowMs: number,
  now: number,
): Promise<RateLimitSlot | { refused: true; resetAt: number }> {
  const windowStart = now - (now % windowMs)
  const current = sql`${rateLimits.windowStart} >= excluded.window_start`
  // SET and WHERE read the row as it was before the update; no row returned means no slot.
  const [row] = await db
    .insert(rateLimits)
    .values({ key, windowStart, count: 1 })
    .onConflictDoUpdate({
      target: rateLimits.key,
      set: {
        count: sql`CASE WHEN ${current} THEN ${rateLimits.count} + 1 ELSE 1 END`,
        windowStart: sql`max(${rateLimits.windowStart}, excluded.window_start)`,
      },
      setWhere: sql`NOT (${current}) OR ${rateLimits.count} < ${limit}`,
    })
    .returning()
  if (row) return { key, windowStart: row.windowStart, count: row.count }
  // Refused: the window that is full ends at its own start plus the length (a read, only now).
  const full = (await readRateLimits(db, [key])).get(key)
  return {
    refused: true,
    resetAt: Math.max(full?.windowStart ?? windowStart, windowStart) + windowMs,
  }
}

/**
 * Gives a slot back when the work it guarded was no guess (a right password, a valid key): one
 * conditional update, and only to the window it was taken in (a new window owes nothing).
 */
export async function giveBackRateLimitSlot(db: Db, slot: RateLimitSlot): Promise<void> {
  await db
    .update(rateLimits)
    .set({ count: sql`${rateLimits.count} - 1` })
    .where(
      and(
        eq(rateLimits.key, slot.key),
        eq(rateLimits.windowStart, slot.windowStart),
        gt(rateLimits.count, 0),
      ),
    )
}

export type RateLimitRow = typeof rateLimits.$inferSelect

/** The rows of `keys` as they are, counting nothing: one read, for checks made before any work. */
export async function readRateLimits(
  db: Db,
  keys: readonly string[],
): Promise<Map<string, RateLimitRow>> {
  const rows = await db
    .select()
    .from(rateLimits)
    .where(inArray(rateLimits.key, [...keys]))
  return new Map(rows.map((row) => [row.key, row]))
}

/** Starts the count of `key` over (the next hit opens a fresh window). */
export async function resetRateLimit(db: Db, key: string): Promise<void> {
  await db.delete(rateLimits).where(eq(rateLimits.key, key))
}

/** A backoff held in a rate-limit row: `window_start` is when it ends, `count` its level. */
export type Backoff = { until: number; level: number }

/**
 * Engages the backoff `key` unless it is already engaged: level 1 lasts `firstMs`, each level
 * after doubles it up to `maxMs`; a backoff engaged within `memoryMs` of the previous one's end
 * goes a level up, a later one starts again at 1. One conditional upsert, so of concurrent
 * callers one engages it; the others get null.
 */
export async function engageBackoff(
  db: Db,
  key: string,
  now: number,
  durations: { firstMs: number; maxMs: number; memoryMs: number },
): Promise<Backoff | null> {
  const { firstMs, maxMs, memoryMs } = durations
  const recent = sql`${rateLimits.windowStart} >= ${now - memoryMs}`
  // SET expressions read the row as it was: `count` is the previous level here.
  const [row] = await db
    .insert(rateLimits)
    .values({ key, windowStart: now + Math.min(firstMs, maxMs), count: 1 })
    .onConflictDoUpdate({
      target: rateLimits.key,
      set: {
        count: sql`CASE WHEN ${recent} THEN ${rateLimits.count} + 1 ELSE 1 END`,
        windowStart: sql`${now} + min(${maxMs}, ${firstMs} *
          (1 << min(20, CASE WHEN ${recent} THEN ${rateLimits.count} ELSE 0 END)))`,
      },
      setWhere: sql`${rateLimits.windowStart} <= ${now}`,
    })
    .returning()
  return row ? { until: row.windowStart, level: row.count } : null
}

/**
 * Housekeeping: deletes counters whose window started more than `maxWindowMs` (the longest
 * window in use) before `now`, so they can no longer count. Returns how many went.
 */
export async function purgeRateLimits(db: Db, now: number, maxWindowMs: number): Promise<number> {
  const rows = await db
    .delete(rateLimits)
    .where(lt(rateLimits.windowStart, now - maxWindowMs))
    .returning({ key: rateLimits.key })
  return rows.length
}
