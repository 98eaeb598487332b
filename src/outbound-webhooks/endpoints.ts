/**
 * Webhook endpoint queries: registration with a fresh `whsec_` secret, changes, deletion (with
 * its deliveries), rotation with an overlap, and the failure counters the sender keeps.
 */
import { and, desc, eq, inArray, isNotNull, sql } from 'drizzle-orm'
import {
  deliveries,
  deliveryAttempts,
  type OutboundEventType,
  type WebhookEndpoint,
  webhookEndpoints,
} from '../../db/schema.js'
import type { Db } from '../data/db.js'
import { randomBase62, randomBytes, toBase64 } from '../lib/bytes.js'

/** How long the previous secret still signs after a rotation (receivers update in the meantime). */
export const ROTATION_OVERLAP_MS = 24 * 60 * 60_000

/** After this many failed attempts in a row an endpoint is shown as failing. */
export const FAILING_AFTER = 5

/** The most endpoints one Paylinks keeps (each event is one delivery per endpoint). */
export const MAX_ENDPOINTS = 20

/** A fresh signing secret in the Standard Webhooks form: `whsec_` and 24 random bytes, base64. */
export function newSecret(): string {
  return `whsec_${toBase64(randomBytes(24))}`
}

export interface EndpointValues {
  url: string
  description: string | null
  eventTypes: OutboundEventType[]
  enabled: boolean
}

/** Every endpoint, newest first. */
export function listEndpoints(db: Db): Promise<WebhookEndpoint[]> {
  return db.select().from(webhookEndpoints).orderBy(desc(webhookEndpoints.createdAt))
}

/** One endpoint, or null. */
export async function getEndpoint(db: Db, id: string): Promise<WebhookEndpoint | null> {
  const [row] = await db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, id))
  return row ?? null
}

/** Registers an endpoint with a new secret (returned once, in the row). */
export async function createEndpoint(
  db: Db,
  values: EndpointValues,
  now: number,
): Promise<WebhookEndpoint> {
  const [row] = await db
    .insert(webhookEndpoints)
    .values({
      ...values,
      id: `we_${randomBase62(16)}`,
      secret: newSecret(),
      createdAt: now,
      updatedAt: now,
    })
    .returning()
  if (!row) throw new Error('The endpoint was not stored')
  return row
}

/** How many endpoints are registered. */
export async function countEndpoints(db: Db): Promise<number> {
  const [row] = await db.select({ n: sql<number>`count(*)` }).from(webhookEndpoints)
  return row?.n ?? 0
}

/** Changes an endpoint; null when there is none. */
export async function updateEndpoint(
  db: Db,
  id: string,
  changes: Partial<EndpointValues>,
  now: number,
): Promise<WebhookEndpoint | null> {
  const [row] = await db
    .update(webhookEndpoints)
    .set({ ...changes, updatedAt: now })
    .where(eq(webhookEndpoints.id, id))
    .returning()
  return row ?? null
}

/** Deletes an endpoint with its deliveries and their attempts; false when there was none. */
export async function deleteEndpoint(db: Db, id: string): Promise<boolean> {
  const own = db.select({ id: deliveries.id }).from(deliveries).where(eq(deliveries.endpointId, id))
  await db.delete(deliveryAttempts).where(inArray(deliveryAttempts.deliveryId, own))
  await db.delete(deliveries).where(eq(deliveries.endpointId, id))
  const gone = await db
    .delete(webhookEndpoints)
    .where(eq(webhookEndpoints.id, id))
    .returning({ id: webhookEndpoints.id })
  return gone.length > 0
}

/**
 * A new secret; the current one becomes the previous one and still signs (beside the new one)
 * for `overlapMs`, so receivers can switch without losing a delivery.
 */
export async function rotateSecret(
  db: Db,
  id: string,
  now: number,
  overlapMs = ROTATION_OVERLAP_MS,
): Promise<WebhookEndpoint | null> {
  const [row] = await db
    .update(webhookEndpoints)
    .set({
      previousSecret: sql`${webhookEndpoints.secret}`,
      previousSecretExpiresAt: now + overlapMs,
      secret: newSecret(),
      updatedAt: now,
    })
    .where(eq(webhookEndpoints.id, id))
    .returning()
  return row ?? null
}

/** The secrets that sign now: the current one, and the previous one during its overlap. */
export function signingSecrets(endpoint: WebhookEndpoint, now: number): string[] {
  const previous =
    endpoint.previousSecret &&
    endpoint.previousSecretExpiresAt !== null &&
    endpoint.previousSecretExpiresAt > now
      ? [endpoint.previousSecret]
      : []
  return [endpoint.secret, ...previous]
}

/** A delivered attempt: the endpoint is well again. */
export async function noteEndpointSuccess(db: Db, id: string): Promise<void> {
  await db
    .update(webhookEndpoints)
    .set({ consecutiveFailures: 0, failingSince: null })
    .where(eq(webhookEndpoints.id, id))
}

/** A failed attempt: one more in a row; at FAILING_AFTER the endpoint is failing from `now`. */
export async function noteEndpointFailure(db: Db, id: string, now: number): Promise<void> {
  await db
    .update(webhookEndpoints)
    .set({
      consecutiveFailures: sql`${webhookEndpoints.consecutiveFailures} + 1`,
      failingSince: sql`coalesce(${webhookEndpoints.failingSince}, iif(${webhookEndpoints.consecutiveFailures} + 1 >= ${FAILING_AFTER}, ${now}, NULL))`,
    })
    .where(eq(webhookEndpoints.id, id))
}

/** The endpoints shown as failing (the dashboard's banner). */
export function listFailingEndpoints(db: Db): Promise<WebhookEndpoint[]> {
  return db
    .select()
    .from(webhookEndpoints)
    .where(and(isNotNull(webhookEndpoints.failingSince), eq(webhookEndpoints.enabled, true)))
}
