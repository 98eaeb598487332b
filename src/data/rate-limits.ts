/** A fixed-window rate limiter kept in the database, so it holds across Node processes and Workers isolates. */
import { lt, sql } from 'drizzle-orm'
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
