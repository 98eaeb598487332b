/**
 * Reading a JSON request body without ever failing with a 500: a wrong content type, an oversized
 * body and malformed JSON each get their own 4xx. Field validation is the caller's (zod) job.
 */
import type { Context, MiddlewareHandler } from 'hono'
import type { AppEnv } from '../deps.js'
import { API_JSON_BODY_LIMIT } from '../http/body-limits.js'
import { bodyLimit } from '../lib/bounded-body.js'
import { apiError, invalidFields } from './errors.js'

/** The largest body the API reads (see body-limits.ts). */
export const MAX_BODY_BYTES = API_JSON_BODY_LIMIT

/**
 * Refuses bodies over MAX_BODY_BYTES with 413, whether or not they declare a length: a declared
 * one without reading, a chunked one as soon as it passes the limit.
 */
export function jsonBodyLimit(): MiddlewareHandler<AppEnv> {
  return bodyLimit<AppEnv>(MAX_BODY_BYTES, (c) =>
    apiError(
      c,
      413,
      'payload_too_large',
      `The request body must be at most ${MAX_BODY_BYTES} bytes.`,
    ),
  )
}

// application/json, with or without parameters (charset), and structured +json types.
const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i

export type BodyResult = { ok: true; body: unknown } | { ok: false; response: Response }

/** Reads the body as JSON, or answers 415 (not JSON) or 400 (malformed). */
export async function readJsonBody(c: Context<AppEnv>): Promise<BodyResult> {
  const type = c.req.header('content-type') ?? ''
  if (!JSON_TYPE.test(type)) {
    return {
      ok: false,
      response: apiError(
        c,
        415,
        'unsupported_media_type',
        'Send the body as JSON with the header Content-Type: application/json.',
      ),
    }
  }
  const text = await c.req.text()
  let body: unknown
  try {
    body = JSON.parse(text)
  } catch {
    return {
      ok: false,
      response: apiError(
        c,
        400,
        'invalid_json',
        text.trim() === ''
          ? 'The request body is empty; send a JSON object.'
          : 'The request body is not valid JSON.',
      ),
    }
  }
  const holder = nestedProtoKey(body)
  if (holder !== null)
    return {
      ok: false,
      response: invalidFields(c, 'invalid_body', {
        [holder]: `${holder} may not hold a key named __proto__`,
      }),
    }
  return { ok: true, body }
}

/**
 * The path of the first object below the body's top that holds a `"__proto__"` key (JSON.parse
 * makes it an own key), or null. The body's own keys are the schemas' to name, but a record (the
 * metadata) would drop that key without a word: zod never copies it. No field of the API is named
 * so, and no metadata key may be.
 */
function nestedProtoKey(value: unknown, path = ''): string | null {
  if (typeof value !== 'object' || value === null) return null
  const entries = Array.isArray(value) ? value.entries() : Object.entries(value)
  for (const [key, inner] of entries) {
    const at =
      path === '' ? String(key) : Array.isArray(value) ? `${path}[${key}]` : `${path}.${key}`
    if (typeof inner !== 'object' || inner === null) continue
    if (!Array.isArray(inner) && Object.hasOwn(inner, '__proto__')) return at
    const deeper = nestedProtoKey(inner, at)
    if (deeper !== null) return deeper
  }
  return null
}
