/**
 * What Paylinks keeps of a gateway webhook delivery. Only `message` is signed (gateway-facts.md
 * "Signatures"): every other field is the sender's to change, so a delivery is known by its signed
 * pair, never by its raw bytes, and what is stored or logged of it is a bounded copy of its known
 * fields — a replay padded with megabytes or with made-up fields stores and logs nothing new.
 */
import { fromBase64, toBase64Url } from '../client/core/bytes.js'
import type { CardWebhookEvent } from '../client/webhook.js'

/** The longest `cib_transaction_id` accepted: the gateway's are about ten digits. */
export const MAX_TRANSACTION_ID_LENGTH = 64
/** The longest text kept of any other unsigned field (stored or logged). */
export const MAX_FIELD_LENGTH = 256
/**
 * The longest `message` and signature kept. Both are verified, so only the gateway can make them
 * long; the cap only bounds the row should it ever do so.
 */
const MAX_SIGNED_LENGTH = 2048

/** `text` cut to `max` characters (null stays null): what may reach a row or a log line. */
export function capped(text: string | null | undefined, max = MAX_FIELD_LENGTH): string | null {
  if (text === null || text === undefined) return null
  return text.length > max ? text.slice(0, max) : text
}

/**
 * The signature in one canonical form: its bytes as unpadded base64url. The verifiers accept
 * both alphabets, padding or none and any unused low bits in the last character, so each of
 * those spellings of one signature must map to one inbox key.
 */
export function canonicalSignature(signature: string): string {
  const bytes = fromBase64(signature)
  return bytes ? toBase64Url(bytes) : signature
}

/**
 * The text whose SHA-256 names a signed pair in the inbox. `message` goes last, so no choice of
 * it can make two different pairs give one text (a signature has no newline).
 */
export function signedPairText(message: string, signature: string): string {
  return `${canonicalSignature(signature)}\n${message}`
}

const STRING_FIELDS = [
  'payment_status',
  'transaction_id',
  'order_id',
  'currency',
  'error_message',
  'action_code_description',
  'resp_code',
  'resp_code_desc',
] as const
const NUMBER_FIELDS = [
  'order_number',
  'order_status',
  'amount',
  'error_code',
  'action_code',
] as const

/**
 * The stored form of a verified event: its documented fields only, each string capped, the
 * signature canonical. Fields the documents do not name (a sender's padding) are dropped.
 */
export function canonicalPayload(event: CardWebhookEvent): string {
  const out: Record<string, unknown> = {
    event: event.event,
    cib_transaction_id: capped(event.cib_transaction_id, MAX_TRANSACTION_ID_LENGTH),
  }
  for (const key of STRING_FIELDS) out[key] = capped(stringOrNull(event[key]))
  for (const key of NUMBER_FIELDS) {
    const value = event[key]
    out[key] = typeof value === 'number' && Number.isSafeInteger(value) ? value : null
  }
  out.message = capped(event.message, MAX_SIGNED_LENGTH)
  out.signature = capped(canonicalSignature(event.signature), MAX_SIGNED_LENGTH)
  return JSON.stringify(out)
}

function stringOrNull(value: unknown): string | null {
  return typeof value === 'string' ? value : null
}
