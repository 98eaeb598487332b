/**
 * The gateway's deliveries in the inbox for one payment, for its page in the dashboard. The inbox
 * has no index by payment (every index costs each delivery a page write); its ids sort by time, so
 * the deliveries of the weeks after the payment started are read as one range of the primary key.
 */
import { and, asc, eq, gte, lt } from 'drizzle-orm'
import { type Payment, type WebhookEvent, webhookEvents } from '../../db/schema.js'
import { webhookEventIdFloor } from '../domain/ids.js'
import type { Db } from './db.js'

/** The most deliveries a payment's page lists (a storm of replays is acknowledged, not shown). */
export const PAYMENT_INBOX_SHOWN = 50

/** How long after a payment starts its deliveries are looked for (gateways retry for hours). */
export const PAYMENT_INBOX_WINDOW_MS = 30 * 24 * 3_600_000

/** A payment's webhook deliveries in the window after it started, oldest first. */
export function listPaymentInboxEvents(
  db: Db,
  payment: Pick<Payment, 'id' | 'createdAt'>,
): Promise<WebhookEvent[]> {
  return db
    .select()
    .from(webhookEvents)
    .where(
      and(
        gte(webhookEvents.id, webhookEventIdFloor(payment.createdAt - 60_000)),
        lt(webhookEvents.id, webhookEventIdFloor(payment.createdAt + PAYMENT_INBOX_WINDOW_MS)),
        eq(webhookEvents.paymentId, payment.id),
      ),
    )
    .orderBy(asc(webhookEvents.id))
    .limit(PAYMENT_INBOX_SHOWN)
}
