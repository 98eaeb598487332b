/** The webhook deliveries recorded for one payment, for its page in the dashboard. */
import { asc, eq } from 'drizzle-orm'
import { type WebhookEvent, webhookEvents } from '../../db/schema.js'
import type { Db } from './db.js'

/** The most deliveries a payment's page lists (a storm of replays is acknowledged, not shown). */
export const PAYMENT_WEBHOOKS_SHOWN = 50

/** A payment's webhook deliveries, oldest first (index webhook_events_payment_idx). */
export function listPaymentWebhooks(db: Db, paymentId: string): Promise<WebhookEvent[]> {
  return db
    .select()
    .from(webhookEvents)
    .where(eq(webhookEvents.paymentId, paymentId))
    .orderBy(asc(webhookEvents.receivedAt))
    .limit(PAYMENT_WEBHOOKS_SHOWN)
}
