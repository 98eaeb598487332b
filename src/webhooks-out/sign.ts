/**
 * Standard Webhooks signatures, by the specification's reference library (pure JS: HMAC-SHA256
 * over `id.timestamp.body`, so it runs on Node and Workers alike).
 */
import { Webhook } from 'standardwebhooks'

/** The three headers of one attempt; during a rotation both secrets sign, space-separated. */
export function signedHeaders(
  secrets: readonly string[],
  eventId: string,
  nowMs: number,
  payload: string,
): Record<string, string> {
  const seconds = Math.floor(nowMs / 1000)
  const at = new Date(seconds * 1000)
  return {
    'webhook-id': eventId,
    'webhook-timestamp': String(seconds),
    'webhook-signature': secrets.map((s) => new Webhook(s).sign(eventId, at, payload)).join(' '),
  }
}
