/**
 * The webhook endpoint and delivery objects of the merchant API: the mapping from rows. Their zod
 * schemas, from which the OpenAPI document is made, are in object-schemas.ts (re-exported here).
 */
import type * as z from 'zod'
import type { Delivery, WebhookEndpoint } from '../../../db/schema.js'
import type { deliveryObject, webhookEndpointObject } from './object-schemas.js'

export {
  deliveryList,
  deliveryObject,
  webhookEndpointList,
  webhookEndpointObject,
  webhookEndpointWithSecret,
} from './object-schemas.js'

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString())

/** An endpoint row as the API shows it (never its secrets). */
export function toEndpointObject(e: WebhookEndpoint): z.infer<typeof webhookEndpointObject> {
  return {
    id: e.id,
    url: e.url,
    description: e.description,
    event_types: e.eventTypes,
    enabled: e.enabled,
    failing: e.failingSince !== null,
    failing_since: iso(e.failingSince),
    consecutive_failures: e.consecutiveFailures,
    previous_secret_expires_at: e.previousSecret ? iso(e.previousSecretExpiresAt) : null,
    created_at: iso(e.createdAt)!,
    updated_at: iso(e.updatedAt)!,
  }
}

/** A delivery row as the API shows it. */
export function toDeliveryObject(d: Delivery): z.infer<typeof deliveryObject> {
  return {
    id: d.eventId,
    type: d.type,
    payment_id: d.paymentId,
    link_id: d.linkId,
    state: d.state,
    attempts: d.attempts,
    next_attempt_at: d.state === 'pending' ? iso(d.nextAttemptAt) : null,
    last_attempt_at: iso(d.lastAttemptAt),
    last_status: d.lastStatus,
    last_response: d.lastResponse,
    last_duration_ms: d.lastDurationMs,
    last_error: d.lastError,
    delivered_at: iso(d.deliveredAt),
    created_at: iso(d.createdAt)!,
  }
}
