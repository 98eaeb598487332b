/**
 * Payment state changes. Each is one UPDATE … WHERE status IN (the states the rules allow), so a
 * duplicate or concurrent delivery changes the row once and the others see `changed: false`.
 */
import { and, eq, inArray, isNull, lt, type SQL, sql } from 'drizzle-orm'
import {
  type FailureCode,
  links,
  type Payment,
  type PaymentStatus,
  payments,
  type TransitionCause,
} from '../../db/schema.js'
import { nextCheckAt } from '../domain/check-schedule.js'
import { storedFailureCode } from '../domain/failure-reasons.js'
import { type Outcome, TRANSITIONS_INTO } from '../domain/payment-state.js'
import type { Db } from './db.js'
import { prepared } from './prepared.js'
import { col } from './sql.js'

/** `changed` tells whether this call moved the row; `payment` is the row as it now stands. */
export type TransitionResult = { changed: boolean; payment: Payment | null }

type Changes = Partial<typeof payments.$inferInsert>

/**
 * Whether the link's other payments already paid fill its `max_payments`, read in the statement
 * that makes this one paid. A place is held only while a payment may still succeed, so a payment
 * that expired (or failed, or was canceled) gave its place back; a late confirmed `paid` is still
 * recorded (the money was taken), and this flag, written in the same UPDATE, tells the merchant.
 * Writes are serialised, so of two late payments racing for the last place exactly one is flagged.
 * The link's `paid_count` is read before this row changes (its trigger runs after), and this
 * payment is not yet paid (nothing leaves `paid`), so it counts exactly the other paid payments.
 */
const BEYOND_MAX_PAYMENTS: SQL = sql`coalesce((
  SELECT l.max_payments IS NOT NULL AND l.paid_count >= l.max_payments
  FROM ${links} AS l WHERE l.id = ${col(payments.linkId)}), 0)`

async function transition(
  db: Db,
  id: string,
  to: PaymentStatus,
  changes: Changes,
  now: number,
  cause: TransitionCause,
): Promise<TransitionResult> {
  // Absent (undefined) fields are kept: one statement per target state and set of fields given,
  // prepared once (building a drizzle query costs far more than running it).
  const given = Object.keys(changes)
    .filter((key) => changes[key as keyof Changes] !== undefined)
    .sort() as Array<keyof Changes>
  const update = prepared(db, `transition:${to}:${given.join(',')}`, (d) =>
    d
      .update(payments)
      .set({
        ...Object.fromEntries(given.map((key) => [key, sql.placeholder(key)])),
        ...(to === 'paid' ? { beyondMaxPayments: BEYOND_MAX_PAYMENTS } : {}),
        status: to,
        // Copied into payment_events by the trigger that records the change (migration 0008).
        statusCause: sql.placeholder('statusCause'),
        updatedAt: sql.placeholder('updatedAt'),
      } as never)
      .where(
        and(
          eq(payments.id, sql.placeholder('id')),
          inArray(payments.status, [...TRANSITIONS_INTO[to]]),
        ),
      )
      .returning()
      .prepare(),
  )
  const values: Record<string, unknown> = { id, updatedAt: now, statusCause: cause }
  for (const key of given) values[key] = changes[key]
  const [row] = (await update.all(values)) as Payment[]
  if (row) return { changed: true, payment: row }
  const byId = prepared(db, 'transition:current', (d) =>
    d
      .select()
      .from(payments)
      .where(eq(payments.id, sql.placeholder('id')))
      .limit(1)
      .prepare(),
  )
  const [current] = (await byId.all({ id })) as Payment[]
  return { changed: false, payment: current ?? null }
}

export type GatewayIds = {
  transactionId: string | null
  cibTransactionId: string
  paymentUrl: string
  /** The card network's order id (`cib_response.orderId`). */
  orderId?: string | null
  orderNumber?: string | null
  /** The creation answer, kept minimal by the caller (no personal data). */
  gatewayResponse: unknown
}

/** `initiated` → `pending` once the gateway created the card transaction. */
export function markPending(
  db: Db,
  id: string,
  ids: GatewayIds,
  now: number,
): Promise<TransitionResult> {
  return transition(
    db,
    id,
    'pending',
    {
      transactionId: ids.transactionId,
      cibTransactionId: ids.cibTransactionId,
      paymentUrl: ids.paymentUrl,
      orderId: ids.orderId ?? undefined,
      orderNumber: ids.orderNumber ?? undefined,
      gatewayResponse: ids.gatewayResponse,
      nextCheckAt: nextCheckAt(0, now),
    },
    now,
    'checkout',
  )
}

/** `initiated` → `error`: the gateway refused the creation or could not be reached. */
export function markError(
  db: Db,
  id: string,
  reason: string,
  now: number,
  cause: TransitionCause,
  gatewayResponse?: unknown,
): Promise<TransitionResult> {
  const changes = {
    errorReason: reason,
    gatewayResponse,
    settledAt: now,
    failureCode: 'gateway_error' as const,
  }
  return transition(db, id, 'error', changes, now, cause)
}

/** What a confirmed check or webhook tells about the outcome (absent fields are kept). */
export type OutcomeDetails = {
  orderId?: string | null
  orderNumber?: string | null
  approvalCode?: string | null
  message?: string | null
  respCode?: string | null
  actionCode?: string | null
  /** Why the outcome is not the expected one (e.g. a check whose amount does not match). */
  errorReason?: string | null
  checkResponse?: unknown
  /** Why it did not succeed (src/domain/failure-reasons.ts); read from the fields above if absent. */
  failureCode?: FailureCode | null
}

/**
 * Settles a payment: `paid` from initiated, pending, failed, canceled or expired (the money was
 * taken; `beyondMaxPayments` is set in the same write when the link was already full, see
 * BEYOND_MAX_PAYMENTS); `failed`, `canceled`, `expired` only from initiated or pending. Nothing
 * leaves `paid`.
 */
export function applyOutcome(
  db: Db,
  id: string,
  outcome: Outcome,
  details: OutcomeDetails,
  now: number,
  cause: TransitionCause,
): Promise<TransitionResult> {
  return transition(
    db,
    id,
    outcome,
    {
      ...details,
      // Written by the UPDATE that settles: none for paid (which also clears an earlier one).
      failureCode:
        outcome === 'paid' ? null : (details.failureCode ?? fallbackFailure(outcome, details)),
      paidAt: outcome === 'paid' ? now : undefined,
      settledAt: now,
      nextCheckAt: null,
    },
    now,
    cause,
  )
}

/** The failure code read from the details' stored fields, as migration 0010's backfill reads them. */
function fallbackFailure(outcome: Outcome, d: OutcomeDetails): FailureCode | null {
  return storedFailureCode({
    status: outcome,
    respCode: d.respCode ?? null,
    actionCode: d.actionCode ?? null,
    checkResponse: d.checkResponse,
    errorReason: d.errorReason ?? null,
  })
}

/**
 * Records a check that gave no outcome and schedules the next one with backoff. Only a pending
 * payment whose attempt count is still the one read is rescheduled, so a payment settled
 * meanwhile, or already rescheduled by another reconciler, is left alone. Returns whether it was.
 */
export async function scheduleNextCheck(
  db: Db,
  payment: Pick<Payment, 'id' | 'checkAttempts'>,
  now: number,
  checkResponse?: unknown,
): Promise<boolean> {
  const attempts = payment.checkAttempts + 1
  const rows = await db
    .update(payments)
    .set({
      checkAttempts: attempts,
      nextCheckAt: nextCheckAt(attempts, now),
      checkResponse,
      updatedAt: now,
    })
    .where(
      and(
        eq(payments.id, payment.id),
        eq(payments.status, 'pending'),
        eq(payments.checkAttempts, payment.checkAttempts),
      ),
    )
    .returning({ id: payments.id })
  return rows.length > 0
}

/**
 * Payments still `initiated` (no gateway id) created before `createdBefore` become `error`: the
 * process died or timed out while creating them, and no customer ever reached a card page.
 */
export async function failStaleInitiated(
  db: Db,
  createdBefore: number,
  now: number,
): Promise<Payment[]> {
  return db
    .update(payments)
    .set({
      status: 'error',
      statusCause: 'reconciler',
      errorReason: 'gateway_timeout',
      failureCode: 'gateway_error',
      settledAt: now,
      updatedAt: now,
    })
    .where(
      and(
        eq(payments.status, 'initiated'),
        isNull(payments.cibTransactionId),
        lt(payments.createdAt, createdBefore),
      ),
    )
    .returning()
}
