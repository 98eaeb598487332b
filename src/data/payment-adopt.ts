/**
 * Adoption of a card transaction whose ids were never stored (see ADOPTABLE_STATUSES): one
 * conditional UPDATE, so a return and a webhook adopting at the same time store the ids once.
 */
import { and, eq, inArray, isNull, sql } from 'drizzle-orm'
import { type Payment, payments, type TransitionCause } from '../../db/schema.js'
import { nextCheckAt } from '../domain/check-schedule.js'
import { ADOPTABLE_STATUSES } from '../domain/payment-state.js'
import type { Db } from './db.js'
import type { TransitionResult } from './payment-transitions.js'

export type AdoptedIds = {
  cibTransactionId: string
  transactionId: string | null
  /**
   * The card network's order id and order number, as the check that vouched for the transaction
   * gave them (a normal payment has its order id from the creation answer, which an adopted one
   * never got): its receipt and e-mails show them.
   */
  orderId?: string | null
  orderNumber?: string | null
}

/**
 * Stores the gateway's ids on a payment that has none and is `initiated` or `error`, and makes it
 * `pending` (its outcome is then confirmed as any other's). Nothing changes when the payment has
 * ids already, has moved on, or another payment holds this transaction.
 */
export async function adoptTransaction(
  db: Db,
  id: string,
  ids: AdoptedIds,
  now: number,
  cause: TransitionCause,
): Promise<TransitionResult> {
  const [row] = await db
    .update(payments)
    .set({
      status: 'pending',
      statusCause: cause,
      cibTransactionId: ids.cibTransactionId,
      transactionId: ids.transactionId,
      orderId: ids.orderId ?? null,
      orderNumber: ids.orderNumber ?? null,
      errorReason: null,
      failureCode: null,
      settledAt: null,
      checkAttempts: 0,
      nextCheckAt: nextCheckAt(0, now),
      updatedAt: now,
    })
    .where(
      and(
        eq(payments.id, id),
        isNull(payments.cibTransactionId),
        inArray(payments.status, [...ADOPTABLE_STATUSES]),
        // Checked here rather than left to the unique index, whose violation D1 reports as a
        // generic error: a transaction belongs to one payment.
        sql`NOT EXISTS (SELECT 1 FROM ${payments} AS other
          WHERE other.cib_transaction_id = ${ids.cibTransactionId})`,
      ),
    )
    .returning()
  if (row) return { changed: true, payment: row }
  const [current] = (await db.select().from(payments).where(eq(payments.id, id)).limit(1)) as [
    Payment?,
  ]
  return { changed: false, payment: current ?? null }
}
