/** Payment reads. Writes live in payment-reserve.ts and payment-transitions.ts. */
import { and, asc, desc, eq, gte, inArray, lt, lte, type SQL, sql } from 'drizzle-orm'
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
import { col } from './sql.js'

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

export type PaymentFilters = {
  status?: PaymentStatus | readonly PaymentStatus[]
  linkId?: string
  /** Created at or after (epoch ms). */
  createdFrom?: number
  /** Created before (epoch ms, exclusive). */
  createdTo?: number
  /** Text the customer's fields, order number, transaction id or reference contain (search.ts). */
  search?: SearchTerm
  /** Only payments on links made there (`dashboard` includes links older than the column). */
  source?: LinkSource
}

/** Payments whose link was made at `source` (a payment's source is its link's). */
function fromSource(source: LinkSource): SQL {
  const made =
    source === 'dashboard'
      ? sql`(${col(links.source)} = 'dashboard' OR ${col(links.source)} IS NULL)`
      : sql`${col(links.source)} = ${source}`
  return sql`${col(payments.linkId)} IN (SELECT ${col(links.id)} FROM ${links} WHERE ${made})`
}

/** The source of each of the links named (a link made before the column reads as `dashboard`). */
export async function linkSources(
  db: Db,
  linkIds: readonly string[],
): Promise<Map<string, LinkSource>> {
  const out = new Map<string, LinkSource>()
  const ids = [...new Set(linkIds)]
  for (let i = 0; i < ids.length; i += 90) {
    const rows = await db
      .select({ id: links.id, source: links.source })
      .from(links)
      .where(inArray(links.id, ids.slice(i, i + 90)))
    for (const row of rows) out.set(row.id, row.source ?? 'dashboard')
  }
  return out
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
      found,
      options.linkId === undefined ? undefined : eq(payments.linkId, options.linkId),
      options.source === undefined ? undefined : fromSource(options.source),
      options.createdFrom === undefined ? undefined : gte(payments.createdAt, options.createdFrom),
      options.createdTo === undefined ? undefined : lt(payments.createdAt, options.createdTo),
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
