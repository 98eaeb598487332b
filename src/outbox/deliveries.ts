/**
 * The outbox's queries, for mail and webhook rows alike: deliveries due, a claim before each
 * attempt (so two runners never send the same attempt), the attempt's outcome and its log line,
 * the delivery log, redelivery.
 */
import { and, asc, desc, eq, lt, lte, sql } from 'drizzle-orm'
import {
  type Delivery,
  type DeliveryAttempt,
  type DeliveryChannel,
  deliveries,
  deliveryAttempts,
  webhookEndpoints,
} from '../../db/schema.js'
import type { Db } from '../data/db.js'

/** How long a claimed attempt holds its row: longer than any attempt's timeout. */
export const CLAIM_MS = 60_000

/**
 * Deliveries of `channel` due at `now`, oldest first, webhooks only for enabled endpoints. A row
 * with an earlier delivery still pending for the same endpoint (or e-mail) and payment waits for
 * it: a receiver hears of a payment's changes in the order they happened.
 */
export function listDue(
  db: Db,
  channel: DeliveryChannel,
  now: number,
  limit: number,
): Promise<Delivery[]> {
  const earlier = sql`EXISTS (SELECT 1 FROM ${deliveries} AS e WHERE e.endpoint_id IS ${deliveries.endpointId}
    AND e.payment_id = ${deliveries.paymentId} AND e.id < ${deliveries.id} AND e.state = 'pending'
    AND e.channel = ${deliveries.channel} AND e.mail_kind IS ${deliveries.mailKind})`
  const enabled = sql`(${deliveries.endpointId} IS NULL OR EXISTS (SELECT 1 FROM ${webhookEndpoints}
    WHERE ${webhookEndpoints.id} = ${deliveries.endpointId} AND ${webhookEndpoints.enabled} = 1))`
  return db
    .select()
    .from(deliveries)
    .where(
      and(
        eq(deliveries.state, 'pending'),
        lte(deliveries.nextAttemptAt, now),
        eq(deliveries.channel, channel),
        enabled,
        sql`NOT ${earlier}`,
      ),
    )
    .orderBy(asc(deliveries.id))
    .limit(limit)
}

/**
 * Takes a due delivery for one attempt: its next attempt moves CLAIM_MS ahead (a runner that dies
 * mid-attempt leaves it to be tried again then) and the payload is kept unless one was kept
 * before. Returns the row as claimed, or null when another runner took it first.
 */
export async function claim(
  db: Db,
  row: Pick<Delivery, 'id' | 'attempts'>,
  payload: string,
  now: number,
): Promise<Delivery | null> {
  const [claimed] = await db
    .update(deliveries)
    .set({
      nextAttemptAt: now + CLAIM_MS,
      payload: sql`coalesce(${deliveries.payload}, ${payload})`,
    })
    .where(
      and(
        eq(deliveries.id, row.id),
        eq(deliveries.attempts, row.attempts),
        eq(deliveries.state, 'pending'),
        lte(deliveries.nextAttemptAt, now),
      ),
    )
    .returning()
  return claimed ?? null
}

/** What one attempt came to. */
export interface AttemptOutcome {
  at: number
  status: number | null
  responseExcerpt: string | null
  durationMs: number
  error: string | null
  delivered: boolean
  /** When to try again; null with `delivered` false: given up. */
  nextAttemptAt: number | null
}

/** A failed attempt that sent nothing: `error`, and the next attempt at `next` (null: given up). */
export function failedAttempt(at: number, error: string, next: number | null): AttemptOutcome {
  return {
    at,
    status: null,
    responseExcerpt: null,
    durationMs: 0,
    error,
    delivered: false,
    nextAttemptAt: next,
  }
}

/** Writes an attempt's outcome on its delivery and in the attempts log. */
export async function recordAttempt(db: Db, id: number, outcome: AttemptOutcome): Promise<void> {
  const state = outcome.delivered
    ? 'delivered'
    : outcome.nextAttemptAt === null
      ? 'failed'
      : 'pending'
  await db
    .update(deliveries)
    .set({
      state,
      attempts: sql`${deliveries.attempts} + 1`,
      nextAttemptAt: outcome.nextAttemptAt ?? outcome.at,
      lastAttemptAt: outcome.at,
      lastStatus: outcome.status,
      lastResponse: outcome.responseExcerpt,
      lastDurationMs: outcome.durationMs,
      lastError: outcome.error,
      ...(outcome.delivered ? { deliveredAt: outcome.at } : {}),
    })
    .where(eq(deliveries.id, id))
  await db.insert(deliveryAttempts).values({
    deliveryId: id,
    at: outcome.at,
    status: outcome.status,
    responseExcerpt: outcome.responseExcerpt,
    durationMs: outcome.durationMs,
    error: outcome.error,
  })
}

/** An endpoint's deliveries, newest first, `before` an id for the next page. */
export function listEndpointDeliveries(
  db: Db,
  endpointId: string,
  limit: number,
  before?: number,
): Promise<Delivery[]> {
  return db
    .select()
    .from(deliveries)
    .where(
      and(
        eq(deliveries.endpointId, endpointId),
        before === undefined ? undefined : lt(deliveries.id, before),
      ),
    )
    .orderBy(desc(deliveries.id))
    .limit(limit)
}

/** One delivery of an endpoint by its event id (msg_…), or null. */
export async function getEndpointDelivery(
  db: Db,
  endpointId: string,
  eventId: string,
): Promise<Delivery | null> {
  const [row] = await db
    .select()
    .from(deliveries)
    .where(and(eq(deliveries.endpointId, endpointId), eq(deliveries.eventId, eventId)))
  return row ?? null
}

/** A delivery's attempts, oldest first. */
export function listAttempts(db: Db, deliveryId: number): Promise<DeliveryAttempt[]> {
  return db
    .select()
    .from(deliveryAttempts)
    .where(eq(deliveryAttempts.deliveryId, deliveryId))
    .orderBy(asc(deliveryAttempts.id))
}

/**
 * Sends a delivery again, now: the same event id and bytes. A delivered or given-up one gets one
 * more attempt; a pending one is simply moved to now.
 */
export async function redeliver(db: Db, id: number, now: number): Promise<Delivery | null> {
  const [row] = await db
    .update(deliveries)
    .set({ state: 'pending', nextAttemptAt: now })
    .where(eq(deliveries.id, id))
    .returning()
  return row ?? null
}
