/**
 * What Paylinks keeps of a gateway webhook delivery. Only `message` is signed (gateway-facts.md
 * "Signatures"): every other field is the sender's to change, so a delivery is known by its signed
 * pair, never by its raw bytes, and what is stored or logged of it is a bounded copy of its known
 * fields — a replay padded with megabytes or with made-up fields stores and logs nothing new.
 */
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

const URL_SAFE = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'

/**
 * The signature in one canonical form: unpadded base64url with the unused low bits of its last
 * character cleared — what re-encoding its bytes gives, for a signature that verified. The
 * verifiers accept both alphabets, padding or none, surrounding blanks and any unused bits, so
 * each of those spellings of one signature must map to one inbox key. Text operations only
 * (docs/decisions/performance.md, "The signature's canonical form by text").
 */
export function canonicalSignature(signature: string): string {
  let text = signature.trim().replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_')
  // 2 characters left over carry 1 byte (4 bits unused), 3 carry 2 bytes (2 bits unused).
  const unused = text.length % 4 === 2 ? 0b1111 : text.length % 4 === 3 ? 0b11 : 0
  const last = URL_SAFE.indexOf(text.at(-1) ?? '')
  if (unused && last >= 0 && (last & unused) !== 0)
    text = text.slice(0, -1) + URL_SAFE[last & ~unused]
  return text
}

/**
 * The text whose SHA-256 names a signed pair in the inbox, from the signature's canonical form.
 * `message` goes last, so no choice of it can make two different pairs give one text (a
 * signature has no newline).
 */
export function signedPairText(message: string, canonical: string): string {
  return `${canonical}\n${message}`
}

/** A webhook body as the receiver reads it: the checked fields, and the parsed body for the rest. */
export interface DeliveryFields {
  /** The parsed body: any other field is read from it only through `canonicalPayload`. */
  body: Record<string, unknown>
  /** The signed text, exactly as received. */
  message: string
  signature: string
  cibTransactionId: string
  paymentStatus: string
}

/**
 * Reads a raw webhook body: `json` when it is not JSON, `shape` when it is not a
 * `cib.payment.updated` event with a payment status, a transaction id (text or a number), a
 * message and a signature. The same rules as the client's `parseCardWebhook`, read straight off
 * the parsed body without copying it (docs/decisions/performance.md, "The fields read once").
 */
export function readDelivery(raw: string): DeliveryFields | 'json' | 'shape' {
  let body: unknown
  try {
    body = JSON.parse(raw)
  } catch {
    return 'json'
  }
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return 'shape'
  const fields = body as Record<string, unknown>
  const paymentStatus = requiredText(fields.payment_status)
  const cibTransactionId = requiredText(fields.cib_transaction_id)
  const { message, signature } = fields
  if (
    fields.event !== 'cib.payment.updated' ||
    paymentStatus === null ||
    cibTransactionId === null ||
    typeof message !== 'string' ||
    typeof signature !== 'string' ||
    signature === ''
  )
    return 'shape'
  return { body: fields, message, signature, cibTransactionId, paymentStatus }
}

/** Text from text or a finite number; null for anything else or for empty text. */
function requiredText(value: unknown): string | null {
  const text = textOf(value)
  return text === '' ? null : text
}

/** A field read as text: text as is, a finite number as its digits, anything else null. */
export function textOf(value: unknown): string | null {
  if (typeof value === 'string') return value
  if (typeof value === 'number' && Number.isFinite(value)) return String(value)
  return null
}

/** A field read as a safe integer: a number, or integer text (`"2"`, `" -2007 "`); else null. */
function integerOf(value: unknown): number | null {
  const n = typeof value === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(value) ? Number(value) : value
  return typeof n === 'number' && Number.isSafeInteger(n) ? n : null
}

/**
 * The stored form of a verified event (its parsed body, or an event the client parsed): its
 * documented fields only, each read as its documented type and each string capped, the signature
 * in its `canonical` form. Fields the documents do not name (a sender's padding) are dropped.
 * Written out field by field in the documents' order: the very text `JSON.stringify` gives for
 * that object (test/domain/webhook-delivery.test.ts), without serialising an object built for it
 * and without scanning the signature, whose alphabet needs no escape, for characters to escape
 * (docs/decisions/performance.md, "Webhooks").
 */
export function canonicalPayload(event: Record<string, unknown>, canonical: string): string {
  const signature = capped(canonical, MAX_SIGNED_LENGTH) as string
  return (
    '{"event":"cib.payment.updated"' +
    `,"cib_transaction_id":${json(capped(textOf(event.cib_transaction_id), MAX_TRANSACTION_ID_LENGTH))}` +
    `,"payment_status":${json(cappedText(event.payment_status))}` +
    `,"transaction_id":${json(cappedText(event.transaction_id))}` +
    `,"order_id":${json(cappedText(event.order_id))}` +
    `,"currency":${json(paddedCode(event.currency, 3))}` +
    `,"error_message":${json(cappedText(event.error_message))}` +
    `,"action_code_description":${json(cappedText(event.action_code_description))}` +
    `,"resp_code":${json(paddedCode(event.resp_code, 2))}` +
    `,"resp_code_desc":${json(cappedText(event.resp_code_desc))}` +
    `,"order_number":${integerJson(event.order_number)}` +
    `,"order_status":${integerJson(event.order_status)}` +
    `,"amount":${integerJson(event.amount)}` +
    `,"error_code":${integerJson(event.error_code)}` +
    `,"action_code":${integerJson(event.action_code)}` +
    `,"message":${json(capped(textOf(event.message), MAX_SIGNED_LENGTH))}` +
    `,"signature":${URL_SAFE_TEXT.test(signature) ? `"${signature}"` : JSON.stringify(signature)}}`
  )
}

/** Text that JSON writes as it is, between quotes: base64url's alphabet. */
const URL_SAFE_TEXT = /^[A-Za-z0-9_-]*$/

/** A text or null as JSON. */
function json(text: string | null): string {
  return text === null ? 'null' : JSON.stringify(text)
}

/** A field read as a safe integer (`integerOf`), as JSON. */
function integerJson(value: unknown): string {
  const n = integerOf(value)
  return n === null ? 'null' : String(n)
}

/** A text field as stored: text or a number's digits, capped; anything else null. */
function cappedText(value: unknown): string | null {
  return capped(textOf(value))
}

/** A code that is numeric text with leading zeros (`012`, `00`): a number sent for one is padded. */
function paddedCode(value: unknown, width: number): string | null {
  const text = textOf(value)
  return capped(typeof value === 'number' ? (text?.padStart(width, '0') ?? null) : text)
}
