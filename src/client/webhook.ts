/**
 * Parsers for what the gateway sends back: the `cib.payment.updated` webhook body and the query of
 * the return-URL callback. Parsing is not trusting: verify `message` with
 * verifyGatewaySignature, then confirm the outcome with `card.check` before acting on it.
 */
import * as z from 'zod'
import { SignatureError, ValidationError } from './core/errors.js'
import { normalise } from './core/normalise.js'
import { asString, isObject } from './core/parse.js'
import { verifyGatewaySignature } from './core/signature.js'
import { validate } from './core/validate.js'

/** The `cib.payment.updated` event; numbers and strings are normalised, unknown fields kept. */
export interface CardWebhookEvent {
  event: 'cib.payment.updated'
  /** `success` or `failed`. */
  payment_status: string
  transaction_id: string | null
  cib_transaction_id: string
  order_id: string | null
  order_number: number | null
  order_status: number | null
  /** In centimes (150000 is 1500.00 DZD). */
  amount: number | null
  /** ISO 4217 numeric code, `012` for DZD. */
  currency: string | null
  error_code: number | null
  error_message: string | null
  action_code: number | null
  action_code_description: string | null
  resp_code: string | null
  resp_code_desc: string | null
  /** The signed text; verify it exactly as received. */
  message: string
  /** Base64 (URL-safe or standard) signature over `message`. */
  signature: string
  [key: string]: unknown
}

const required = (what: string) =>
  z
    .union([z.string(), z.number()], { error: `must be ${what}` })
    .transform((v) => String(v))
    .pipe(z.string().min(1, 'must not be empty'))

const eventSchema = z.looseObject({
  event: z.literal('cib.payment.updated', { error: 'must be cib.payment.updated' }),
  payment_status: required('a string'),
  cib_transaction_id: required('a string or a number'),
  message: z.string({ error: 'must be a string' }),
  signature: z.string({ error: 'must be a string' }).min(1, 'must not be empty'),
})

const FIELDS = {
  transaction_id: 'string?',
  order_id: 'string?',
  order_number: 'integer?',
  order_status: 'integer?',
  amount: 'integer?',
  currency: 'string?',
  error_code: 'integer?',
  error_message: 'string?',
  action_code: 'integer?',
  action_code_description: 'string?',
  resp_code: 'string?',
  resp_code_desc: 'string?',
} as const

/**
 * Parses a webhook body (the raw JSON text or the parsed value). Throws ValidationError when it
 * is not a `cib.payment.updated` event with a message and a signature.
 */
export function parseCardWebhook(body: unknown): CardWebhookEvent {
  let value = body
  if (typeof body === 'string') {
    try {
      value = JSON.parse(body)
    } catch {
      throw new ValidationError({ '(body)': ['must be JSON'] }, 'Invalid webhook')
    }
  }
  const base = validate(eventSchema, value, 'Invalid webhook')
  const event = normalise(base, FIELDS)
  for (const key of Object.keys(FIELDS)) event[key] ??= null
  // The currency code is numeric text with leading zeros (012); a number loses them.
  if (typeof base.currency === 'number') event.currency = String(base.currency).padStart(3, '0')
  if (typeof base.resp_code === 'number') event.resp_code = String(base.resp_code).padStart(2, '0')
  return event as CardWebhookEvent
}

/** The parameters the gateway appends to `return_url`; each may be missing. */
export interface ReturnQuery {
  payment_status?: string
  transaction_id?: string
  cib_transaction_id?: string
  signature?: string
  message?: string
}

const RETURN_KEYS = [
  'payment_status',
  'transaction_id',
  'cib_transaction_id',
  'signature',
  'message',
] as const

/**
 * Reads the return-URL callback's parameters. Never throws: junk gives missing fields. The
 * gateway appends its parameters after the merchant's own, so the last occurrence wins.
 */
export function parseReturnQuery(
  query: URLSearchParams | string | Record<string, string | string[] | undefined>,
): ReturnQuery {
  const out: ReturnQuery = {}
  for (const key of RETURN_KEYS) {
    let value: string | undefined
    if (query instanceof URLSearchParams || typeof query === 'string') {
      // A whole URL is accepted too: only what follows its `?` is the query.
      const params =
        typeof query === 'string' ? new URLSearchParams(query.slice(query.indexOf('?') + 1)) : query
      value = params.getAll(key).at(-1)
    } else if (isObject(query)) {
      const raw = query[key]
      value = Array.isArray(raw) ? raw.at(-1) : asString(raw)
    }
    if (typeof value !== 'string' || value === '') continue
    // A standard-base64 signature put in a URL unencoded has its `+` read back as a space.
    out[key] = key === 'signature' ? value.replace(/ /g, '+') : value
  }
  return out
}

/** Verifies `message` against `signature`, throwing SignatureError when it does not verify. */
export async function assertGatewaySignature(
  message: string,
  signature: string,
  publicKey?: string | CryptoKey,
): Promise<void> {
  if (!(await verifyGatewaySignature(message, signature, publicKey)))
    throw new SignatureError(
      'The gateway signature does not verify: ignore this callback, or check the configured public key.',
    )
}
