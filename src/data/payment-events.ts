/**
 * The record of each payment's changes of status (`payment_events`), written by triggers inside
 * the statements that make the changes (migration 0008); read here, in order.
 */
import { asc, eq } from 'drizzle-orm'
import { type PaymentEvent, paymentEvents } from '../../db/schema.js'
import type { Db } from './db.js'

/** A payment's changes of status, oldest first. */
export function listPaymentEvents(db: Db, paymentId: string): Promise<PaymentEvent[]> {
  return db
    .select()
    .from(paymentEvents)
    .where(eq(paymentEvents.paymentId, paymentId))
    .orderBy(asc(paymentEvents.id))
}
