/**
 * A deposit payment's place among its link's parts, for its receipt: what was paid toward the
 * link's amount up to and including it, and what remained then. Computed when the receipt is
 * shown (not stored on the payment), from the link's paid payments in the order they were paid
 * (`paid_at`, then id), each counting its part of the price, `amount − fee` (= subtotal −
 * discount, as `links.paid_total` counts it: 0028_deposit_balance). So every receipt of the link
 * — page, PDF, e-mail, shown today or in a year — tells the same story, and the last part says
 * "paid in full". The total is the link's amount as it stands now.
 */
import { and, eq, sql } from 'drizzle-orm'
import { type Link, type Payment, payments } from '../../db/schema.js'
import type { ReceiptDeposit } from '../domain/receipt-view.js'
import type { Db } from './db.js'
import { col } from './sql.js'

/** The deposit lines of a paid payment's receipt; null when its link is not a deposit link. */
export async function receiptDeposit(
  db: Db,
  payment: Payment,
  link: Pick<Link, 'amount' | 'partialMinAmount'> | null,
): Promise<ReceiptDeposit | null> {
  if (!link || link.partialMinAmount === null || link.amount === null) return null
  if (payment.status !== 'paid' || payment.paidAt === null) return null
  const paidAt = payment.paidAt
  const [row] = await db
    .select({
      paid: sql<number>`coalesce(sum(${col(payments.amount)} - ${col(payments.fee)}), 0)`,
    })
    .from(payments)
    .where(
      and(
        eq(payments.linkId, payment.linkId),
        eq(payments.status, 'paid'),
        sql`(${col(payments.paidAt)} < ${paidAt}
          OR (${col(payments.paidAt)} = ${paidAt} AND ${col(payments.id)} <= ${payment.id}))`,
      ),
    )
  const paid = Number(row?.paid ?? 0)
  return { total: link.amount, paid, remaining: Math.max(0, link.amount - paid) }
}
