/**
 * The dashboard's overview: money collected, outcomes and reasons per Algiers day over the last 30
 * days, the links that collected most, and the payments in flight, each one aggregate in SQL.
 *
 * Which time a payment counts at:
 * - money collected (totals, per day, per link) counts at `paid_at`: the day the money was taken,
 *   as the merchant's bank statement shows it, even for a payment started the evening before;
 * - outcomes (paid / failed / other per day, the failure rate, the reasons) count at
 *   `created_at`: the day the customer tried. Every payment has it (in-flight ones have no
 *   `settled_at`), it is indexed, and it is the time the payments list filters on, so a day of the
 *   chart and that day's list show the same payments.
 *
 * Days are Algiers days: the window starts at an Algiers midnight (found through Intl in
 * src/domain/algiers-time.ts) and SQL counts whole 24-hour days from there, which is right while
 * Algiers keeps one offset all year (UTC+1, no summer time since 1981).
 */
import { and, desc, eq, gte, inArray, lt, type SQL, sql } from 'drizzle-orm'
import {
  type FailureCode,
  PAYMENT_STATUSES,
  type PaymentStatus,
  payments,
} from '../../db/schema.js'
import { algiersDayStart, toAlgiersIso } from '../domain/algiers-time.js'
import { UNSUCCESSFUL } from '../domain/payment-state.js'
import type { Db } from './db.js'
import { linkTitles } from './links.js'

export const OVERVIEW_DAYS = 30
const DAY_MS = 86_400_000
const TOP_LINKS = 5

const IN_FLIGHT: readonly PaymentStatus[] = ['initiated', 'pending']

/** One Algiers day of the window. */
export type OverviewDay = {
  /** The Algiers calendar date, `2026-01-15`. */
  date: string
  /** Money collected that day (paid_at), centimes, and how many payments brought it. */
  collected: number
  paidCount: number
  /** Payments started that day (created_at) by what became of them. */
  outcomes: { paid: number; failed: number; other: number }
}

export type Overview = {
  /** The last 30 Algiers days, oldest first; the last is today. */
  days: OverviewDay[]
  /** Settled over the 30 days (created_at): paid plus unsuccessful, and the unsuccessful alone. */
  settled: number
  unsuccessful: number
  /** Why the unsuccessful ones failed, most frequent first; null: no reason recorded. */
  reasons: { code: FailureCode | null; count: number }[]
  /** The links that collected most over the 30 days (paid_at). */
  topLinks: { id: string; title: string; paidCount: number; collected: number }[]
  /** Payments in flight now, whatever their age. */
  pending: number
  initiated: number
}

/** The Algiers date `days` after `date` (negative: before). */
function shiftDate(date: string, days: number): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number]
  return new Date(Date.UTC(y, m - 1, d + days)).toISOString().slice(0, 10)
}

/** The window's first instant and its dates, oldest first, for the Algiers day of `now`. */
export function overviewWindow(now: number): { start: number; end: number; dates: string[] } {
  const today = toAlgiersIso(now).slice(0, 10)
  const dates = Array.from({ length: OVERVIEW_DAYS }, (_, i) =>
    shiftDate(today, i - OVERVIEW_DAYS + 1),
  )
  const start = algiersDayStart(dates[0]!)!
  return { start, end: start + OVERVIEW_DAYS * DAY_MS, dates }
}

/**
 * Whole days since `start`, as an integer: the bound value is cast, since a JavaScript number may
 * be bound as a REAL and the division would then keep the fraction.
 */
function dayOf(column: typeof payments.paidAt | typeof payments.createdAt, start: number): SQL {
  return sql`(${column} - CAST(${start} AS INTEGER)) / ${sql.raw(String(DAY_MS))}`
}

/** The overview at `now`; see the comment at the top for which time each figure counts at. */
export async function getOverview(db: Db, now: number): Promise<Overview> {
  const { start, end, dates } = overviewWindow(now)
  const days: OverviewDay[] = dates.map((date) => ({
    date,
    collected: 0,
    paidCount: 0,
    outcomes: { paid: 0, failed: 0, other: 0 },
  }))
  const paidInWindow = and(
    eq(payments.status, 'paid'),
    gte(payments.paidAt, start),
    lt(payments.paidAt, end),
  )
  const createdInWindow = (statuses: readonly PaymentStatus[]) =>
    and(
      inArray(payments.status, [...statuses]),
      gte(payments.createdAt, start),
      lt(payments.createdAt, end),
    )
  const n = sql<number>`count(*)`.mapWith(Number)
  // total(), not sum(): sum() raises an error past 64 bits, which one absurd stored amount could
  // reach; total() adds as doubles, exact up to 2^53 centimes (90 billion DA).
  const total = sql<number>`total(${payments.amount})`.mapWith(Number)
  const paidDay = dayOf(payments.paidAt, start)
  const createdDay = dayOf(payments.createdAt, start)
  const [collected, outcomes, reasons, top, inFlight] = await Promise.all([
    // Read from payments_status_paid_at_idx alone.
    db
      .select({ day: sql<number>`${paidDay}`.mapWith(Number), n, total })
      .from(payments)
      .where(paidInWindow)
      .groupBy(paidDay),
    // Every status listed, so SQLite reads (status, created_at) ranges of
    // payments_status_created_at_idx, which hold all it needs, instead of each row.
    db
      .select({ day: sql<number>`${createdDay}`.mapWith(Number), status: payments.status, n })
      .from(payments)
      .where(createdInWindow(PAYMENT_STATUSES))
      .groupBy(createdDay, payments.status),
    db
      .select({ code: payments.failureCode, n })
      .from(payments)
      .where(createdInWindow(UNSUCCESSFUL))
      .groupBy(payments.failureCode)
      .orderBy(desc(n), payments.failureCode),
    db
      .select({ id: payments.linkId, n, total })
      .from(payments)
      .where(paidInWindow)
      .groupBy(payments.linkId)
      .orderBy(desc(total), payments.linkId)
      .limit(TOP_LINKS),
    db
      .select({ status: payments.status, n })
      .from(payments)
      .where(inArray(payments.status, [...IN_FLIGHT]))
      .groupBy(payments.status),
  ])
  for (const row of collected) {
    const day = days[row.day]
    if (day) {
      day.collected = row.total
      day.paidCount = row.n
    }
  }
  let settled = 0
  let unsuccessful = 0
  for (const row of outcomes) {
    const day = days[row.day]
    if (!day) continue
    const kind = row.status === 'paid' ? 'paid' : row.status === 'failed' ? 'failed' : 'other'
    day.outcomes[kind] += row.n
    if (row.status === 'paid') settled += row.n
    else if (UNSUCCESSFUL.includes(row.status)) {
      settled += row.n
      unsuccessful += row.n
    }
  }
  const titles = await linkTitles(
    db,
    top.map((t) => t.id),
  )
  return {
    days,
    settled,
    unsuccessful,
    reasons: reasons.map((r) => ({ code: r.code, count: r.n })),
    topLinks: top.map((t) => ({
      id: t.id,
      title: titles.get(t.id) ?? t.id,
      paidCount: t.n,
      collected: t.total,
    })),
    pending: inFlight.find((r) => r.status === 'pending')?.n ?? 0,
    initiated: inFlight.find((r) => r.status === 'initiated')?.n ?? 0,
  }
}

/** The money collected and paid count over the last `count` days of the window (1, 7, 30). */
export function lastDays(overview: Overview, count: number): { collected: number; paid: number } {
  let collected = 0
  let paid = 0
  for (const day of overview.days.slice(-count)) {
    collected += day.collected
    paid += day.paidCount
  }
  return { collected, paid }
}
