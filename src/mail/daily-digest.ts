/**
 * The merchant's daily digest (MERCHANT_NOTIFY=daily): once a day, after midnight in Algiers, for
 * the Algiers day before. The day sent is recorded in `settings` by a conditional write before
 * sending, so a restart, or a second tick, never sends the same day twice; a failed send takes its
 * mark back and is tried again later, on the outbox's schedule.
 */
import { and, eq, lt } from 'drizzle-orm'
import { settings } from '../../db/schema.js'
import type { Db } from '../data/db.js'
import { algiersDayStart, toAlgiersIso } from '../domain/algiers-time.js'
import { describe } from '../lib/describe-error.js'
import { RETRY_DELAYS_MS } from '../outbox/schedule.js'
import { deliverMerchantDigest, type MailDeps } from './deliver.js'

const KEY = 'mail_digest_day'

/** The Algiers day before the one `now` is in: its date and its bounds [from, to) in ms. */
export function previousAlgiersDay(now: number): { day: string; from: number; to: number } {
  const today = toAlgiersIso(now).slice(0, 10)
  const [y, m, d] = today.split('-').map(Number) as [number, number, number]
  const day = new Date(Date.UTC(y, m - 1, d - 1)).toISOString().slice(0, 10)
  return { day, from: algiersDayStart(day) ?? now, to: algiersDayStart(today) ?? now }
}

export type DigestOutcome = 'sent' | 'skipped' | 'already_sent'

/** Sends the digest of the day before `now` unless it was sent already; throws when sending fails. */
export async function sendDailyDigest(deps: MailDeps, now: number): Promise<DigestOutcome> {
  const { day, from, to } = previousAlgiersDay(now)
  const previous = await markDay(deps.db, day, now)
  if (previous === false) return 'already_sent'
  try {
    return await deliverMerchantDigest(deps, from, to)
  } catch (error) {
    // Not sent: give the day back (unless something newer was marked since).
    if (previous === null) {
      await deps.db.delete(settings).where(and(eq(settings.key, KEY), eq(settings.value, day)))
    } else {
      await deps.db
        .update(settings)
        .set({ value: previous })
        .where(and(eq(settings.key, KEY), eq(settings.value, day)))
    }
    throw error
  }
}

/**
 * Marks `day` as sent if no day as late is marked: returns the day marked before (null: none), or
 * false when this day (or a later one) is marked already. ISO dates compare as strings.
 */
async function markDay(db: Db, day: string, now: number): Promise<string | null | false> {
  const [before] = await db.select().from(settings).where(eq(settings.key, KEY))
  if (before && before.value >= day) return false
  const written = before
    ? await db
        .update(settings)
        .set({ value: day })
        .where(
          and(eq(settings.key, KEY), lt(settings.value, day), eq(settings.value, before.value)),
        )
        .returning()
    : await db
        .insert(settings)
        .values({ key: KEY, value: day, createdAt: now })
        .onConflictDoNothing()
        .returning()
  return written.length === 1 ? (before?.value ?? null) : false
}

/**
 * A check to run on a timer: sends the digest once per Algiers day. It remembers the day done, so
 * most checks read nothing; after a failure it waits as the outbox does before trying again.
 */
export function dailyDigestTicker(deps: MailDeps, clock: () => number): () => Promise<void> {
  let done = ''
  let failures = 0
  let retryAt = 0
  return async () => {
    const now = clock()
    const { day } = previousAlgiersDay(now)
    if (day === done || now < retryAt) return
    try {
      await sendDailyDigest(deps, now)
      done = day
      failures = 0
      retryAt = 0
    } catch (error) {
      failures++
      const delay = RETRY_DELAYS_MS[Math.min(failures, RETRY_DELAYS_MS.length) - 1] ?? 0
      retryAt = now + delay
      deps.log({
        level: 'error',
        event: 'mail_digest_failed',
        day,
        attempt: failures,
        error: describe(error),
      })
    }
  }
}
