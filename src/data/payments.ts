/** Payment reads. Writes live in payment-reserve.ts and payment-transitions.ts. */
import { and, asc, desc, eq, gte, lt, lte, type SQL, sql } from 'drizzle-orm'
import {
  type LinkSource,
  links,
  type Payment,
  type PaymentStatus,
  payments,
} from '../../db/schema.js'
import type { Db } from './db.js'
import { afterCursor, type Page, type PageOptions, pageSize, toPage } from './paging.js'
import { prepared } from './prepared.js'
import type { SearchTerm } from './search.js'
import { paymentSearch } from './search-sql.js'

export type { AdoptedIds } from './payment-adopt.js'
export { adoptTransaction } from './payment-adopt.js'
export type { PaymentRequest, ReserveRefusal, ReserveResult } from './payment-reserve.js'
export { reservePayment } from './payment-reserve.js'
export type { GatewayIds, OutcomeDetails, TransitionResult } from './payment-transitions.js'
export {
  applyOutcome,
  failStaleInitiated,
  markError,
  markPending,
  scheduleNextCheck,
} from './payment-transitions.js'

type PaymentKey = 'id' | 'receiptId' | 'cibTransactionId'

/** One payment by a unique column, through a query prepared once per handle. */
async function paymentBy(db: Db, column: PaymentKey, value: string): Promise<Payment | null> {
  const query = prepared(db, `paymentBy:${column}`, (d) =>
    d
      .select()
      .from(payments)
      .where(eq(payments[column], sql.placeholder('value')))
      .limit(1)
      .prepare(),
  )
  return ((await query.all({ value })) as Payment[])[0] ?? null
}

/** A payment by its id (`pay_…`). */
export function getPaymentById(db: Db, id: string): Promise<Payment | null> {
  return paymentBy(db, 'id', id)
}

/** A payment by the unguessable id of its receipt URL. */
export function getPaymentByReceiptId(db: Db, receiptId: string): Promise<Payment | null> {
  return paymentBy(db, 'receiptId', receiptId)
}

/** A payment by the card network's transaction id (what webhooks and checks carry). */
export function getPaymentByCibTransactionId(
  db: Db,
  cibTransactionId: string,
): Promise<Payment | null> {
  return paymentBy(db, 'cibTransactionId', cibTransactionId)
}

/** Just the id and status of the payment with this card network transaction id. */
export async function getPaymentStateByCibTransactionId(
  db: Db,
  cibTransactionId: string,
): Promise<Pick<Payment, 'id' | 'status'> | null> {
  const query = prepared(db, 'paymentStateByCib', (d) =>
    d
      .select({ id: payments.id, status: payments.status })
      .from(payments)
      .where(eq(payments.cibTransactionId, sql.placeholder('value')))
      .limit(1)
      .prepare(),
  )
  const rows = (await query.all({ value: cibTransactionId })) as Pick<Payment, 'id' | 'status'>[]
  return rows[0] ?? null
}

/** How many of a link's payments were confirmed paid beyond its `max_payments`. */
export async function countPaymentsBeyondMax(db: Db, linkId: string): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)`.mapWith(Number) })
    .from(payments)
    // `= 1` written out, not bound: only then can SQLite use the partial index on the flag.
    .where(and(eq(payments.linkId, linkId), sql`${payments.beyondMaxPayments} = 1`))
  return row?.n ?? 0
}

/**
 * When a link's last paid payment was paid (as its receipt dates it: `paid_at`, else its last
 * change), or null when none is. Reads the link's paid rows through the (link_id, status) index:
 * no more than its `max_payments`, and the few paid beyond it.
 */
export async function lastPaidAt(db: Db, linkId: string): Promise<number | null> {
  const [row] = await db
    .select({ at: sql<number | null>`max(coalesce(${payments.paidAt}, ${payments.updatedAt}))` })
    .from(payments)
    .where(and(eq(payments.linkId, linkId), eq(payments.status, 'paid')))
  return row?.at ?? null
}

export type PaymentFilters = {
  status?: PaymentStatus | readonly PaymentStatus[]
  linkId?: string
  /** Created at or after (epoch ms). */
  createdFrom?: number
  /** Created before (epoch ms, exclusive). */
  createdTo?: number
  /** Text the customer's fields, order number, transaction id or reference contain (search.ts). */
  search?: SearchTerm
  /** Only payments on links made there (`dashboard` includes links older than links.source). */
  source?: LinkSource
  /**
   * The payments this cashier (their label, as `links.created_by` keeps it) may see: every
   * payment but another cashier's till sales; with the day's bounds, what a cashier sees
   * (src/auth/visibility.ts).
   */
  seenByCashier?: string
}

/**
 * Payments made on links of `source` (the payment's own copy of its link's source). Alone, it is
 * read through (source, created_at, id). Beside a status or a link it is only checked on the rows
 * their indexes give, as before the column (`+` keeps SQLite from choosing the source index, which
 * it otherwise prefers): a link's payments all share one source, and walking all of the
 * dashboard's payments for a page of a rare status is what the status index avoids.
 */
function fromSource(source: LinkSource, filterOnly: boolean): SQL {
  return filterOnly ? sql`+${payments.source} = ${source}` : eq(payments.source, source)
}

/**
 * Every payment but the till sales another cashier made: a till sale's payment rows carry the
 * till's source, and its link the cashier who made it.
 */
function seenByCashier(cashier: string): SQL {
  const own = sql`SELECT ${links.id} FROM ${links} WHERE ${links.source} = 'till' AND ${links.createdBy} = ${cashier}`
  return sql`(${payments.source} <> 'till' OR ${payments.linkId} IN (${own}))`
}

/** What narrows the payments a principal sees (src/auth/visibility.ts). */
export type PaymentScope = Pick<PaymentFilters, 'seenByCashier' | 'createdFrom' | 'createdTo'>

/**
 * The payment with this id when it is within `scope`, through the same conditions as the list:
 * a payment the list would not show is not found either.
 */
export async function getPaymentWithin(
  db: Db,
  id: string,
  scope: PaymentScope,
): Promise<Payment | null> {
  const [row] = await db
    .select()
    .from(payments)
    .where(and(eq(payments.id, id), ...conditions(scope, undefined, undefined)))
    .limit(1)
  return row ?? null
}

/** The conditions of `options` beside the status (given) and the cursor, `found` the search's. */
function conditions(
  options: PaymentFilters,
  found: SQL | undefined,
  status: SQL | undefined,
): (SQL | undefined)[] {
  return [
    found,
    options.linkId === undefined ? undefined : eq(payments.linkId, options.linkId),
    options.source === undefined
      ? undefined
      : fromSource(options.source, status !== undefined || options.linkId !== undefined),
    options.seenByCashier === undefined ? undefined : seenByCashier(options.seenByCashier),
    options.createdFrom === undefined ? undefined : gte(payments.createdAt, options.createdFrom),
    options.createdTo === undefined ? undefined : lt(payments.createdAt, options.createdTo),
  ]
}

/** Payments newest first, filtered by status, link and creation time, a page at a time. */
export async function listPayments(
  db: Db,
  options: PaymentFilters & PageOptions = {},
): Promise<Page<Payment>> {
  const limit = pageSize(options.limit)
  const skip = options.cursor ? 0 : Math.max(0, Math.trunc(options.offset ?? 0))
  const statuses =
    options.status === undefined
      ? undefined
      : [...new Set(typeof options.status === 'string' ? [options.status] : options.status)]
  const found = options.search ? await paymentSearch(db, options.search) : undefined
  const where = (status: SQL | undefined) =>
    and(
      status,
      ...conditions(options, found, status),
      options.cursor ? afterCursor(payments.createdAt, payments.id, options.cursor) : undefined,
    )
  const newestFirst = (condition: SQL | undefined, count: number, offset: number) =>
    db
      .select()
      .from(payments)
      .where(condition)
      .orderBy(desc(payments.createdAt), desc(payments.id))
      .limit(count)
      .offset(offset)
  if (!statuses || statuses.length === 1) {
    const status = statuses ? eq(payments.status, statuses[0]!) : undefined
    return toPage(await newestFirst(where(status), limit + 1, skip), limit)
  }
  // Several statuses: one read per status in index order, merged here. SQLite cannot read an IN
  // list in (created_at, id) order and would sort every matching row for one page.
  const parts = await Promise.all(
    statuses.map((s) => newestFirst(where(eq(payments.status, s)), skip + limit + 1, 0)),
  )
  const rows = parts
    .flat()
    .sort((a, b) => b.createdAt - a.createdAt || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0))
  return toPage(rows.slice(skip, skip + limit + 1), limit)
}

/** Pending payments whose next check is due, most overdue first (for the reconciler). */
export function listPaymentsDueForCheck(db: Db, now: number, limit: number): Promise<Payment[]> {
  return db
    .select()
    .from(payments)
    .where(and(eq(payments.status, 'pending'), lte(payments.nextCheckAt, now)))
    .orderBy(asc(payments.nextCheckAt), asc(payments.id))
    .limit(limit)
}
