/**
 * Verifies an outbound event as Standard Webhooks define it: `webhook-signature` holds one or more
 * space-separated `v1,<base64>` signatures, each the HMAC-SHA256 of `id.timestamp.body` keyed by
 * the bytes of the endpoint's secret (`whsec_` + base64); the timestamp must be within five
 * minutes of now. Web Crypto does the HMAC and compares it in constant time
 * (`crypto.subtle.verify`), so `verify` is async, and runs wherever Web Crypto does.
 */
import { PaylinksWebhookError } from './errors.js'
import type { WebhookEvent } from './types.js'

/** Request headers: a `Headers`, or a plain object (Node's `req.headers`, any case). */
export type WebhookHeaders =
  | { get(name: string): string | null }
  | Record<string, string | readonly string[] | undefined>

export interface VerifyOptions {
  /** Seconds the timestamp may be from now, either way; default 300. */
  toleranceSeconds?: number
  /** Now, in milliseconds (tests, or a clock of your own); default `Date.now()`. */
  now?: number
}

const DEFAULT_TOLERANCE_SECONDS = 5 * 60
const SECRET_PREFIX = 'whsec_'

function header(headers: WebhookHeaders, name: string): string | null {
  if (typeof (headers as { get?: unknown }).get === 'function')
    return (headers as { get(name: string): string | null }).get(name)
  for (const [key, value] of Object.entries(headers as Record<string, unknown>)) {
    if (key.toLowerCase() !== name) continue
    if (typeof value === 'string') return value
    if (Array.isArray(value)) return value.join(' ')
  }
  return null
}

function fromBase64(text: string): Uint8Array<ArrayBuffer> | null {
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(text) || text.length % 4 === 1) return null
  try {
    return Uint8Array.from(atob(text), (c) => c.charCodeAt(0))
  } catch {
    return null
  }
}

const fail = (code: string, message: string) => new PaylinksWebhookError({ code, message })

async function keyOf(secret: string): Promise<CryptoKey> {
  const text = secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret
  const bytes = fromBase64(text)
  if (!bytes || bytes.length === 0)
    throw fail('invalid_secret', 'The webhook secret is not whsec_ followed by base64')
  return crypto.subtle.importKey('raw', bytes, { name: 'HMAC', hash: 'SHA-256' }, false, ['verify'])
}

/**
 * The event, once its signature and timestamp check out; otherwise throws a PaylinksWebhookError
 * (`code`: `missing_headers`, `invalid_timestamp`, `timestamp_too_old`, `timestamp_too_new`,
 * `invalid_secret`, `invalid_signature`, `invalid_payload`). Pass the body exactly as received
 * (the raw text or bytes, not JSON parsed and stringified again), and keep each event's
 * `webhook-id` to skip one delivered twice.
 */
export async function verify(
  body: string | Uint8Array | ArrayBuffer,
  headers: WebhookHeaders,
  secret: string,
  options: VerifyOptions = {},
): Promise<WebhookEvent> {
  const id = header(headers, 'webhook-id')
  const timestamp = header(headers, 'webhook-timestamp')
  const signatures = header(headers, 'webhook-signature')
  if (!id || !timestamp || !signatures)
    throw fail(
      'missing_headers',
      'The request lacks webhook-id, webhook-timestamp or webhook-signature',
    )
  if (!/^\d{1,15}$/.test(timestamp))
    throw fail('invalid_timestamp', 'webhook-timestamp is not a number of seconds')
  const tolerance = options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS
  const nowSeconds = Math.floor((options.now ?? Date.now()) / 1000)
  const seconds = Number(timestamp)
  if (seconds < nowSeconds - tolerance)
    throw fail('timestamp_too_old', 'webhook-timestamp is too old (a replayed event?)')
  if (seconds > nowSeconds + tolerance)
    throw fail('timestamp_too_new', 'webhook-timestamp is too far in the future')

  const bodyBytes =
    typeof body === 'string'
      ? new TextEncoder().encode(body)
      : body instanceof Uint8Array
        ? body
        : new Uint8Array(body)
  const prefix = new TextEncoder().encode(`${id}.${timestamp}.`)
  const signed = new Uint8Array(prefix.length + bodyBytes.length)
  signed.set(prefix)
  signed.set(bodyBytes, prefix.length)

  const key = await keyOf(secret)
  let matched = false
  // During a secret's rotation two signatures come; any one that matches will do.
  for (const part of signatures.split(' ')) {
    const [version, value] = part.split(',', 2)
    if (version !== 'v1' || !value) continue
    const mac = fromBase64(value)
    if (mac?.length !== 32) continue
    if (await crypto.subtle.verify('HMAC', key, mac, signed)) {
      matched = true
      break
    }
  }
  if (!matched) throw fail('invalid_signature', 'No webhook-signature matches this secret')

  let event: unknown
  try {
    event = JSON.parse(new TextDecoder().decode(bodyBytes))
  } catch {
    throw fail('invalid_payload', 'The signed body is not JSON')
  }
  const shaped = event as { type?: unknown; timestamp?: unknown; data?: unknown } | null
  if (
    !shaped ||
    typeof shaped !== 'object' ||
    typeof shaped.type !== 'string' ||
    typeof shaped.data !== 'object'
  )
    throw fail('invalid_payload', 'The signed body is not an event ({type, timestamp, data})')
  return event as WebhookEvent
}

/** `Paylinks.webhooks`: what a receiver of Paylinks' events needs. */
export const webhooks = { verify }
