/**
 * Reading a JSON request body without ever failing with a 500: a wrong content type, an oversized
 * body and malformed JSON each get their own 4xx. Field validation is the caller's (zod) job.
 */
import type { Context, MiddlewareHandler } from 'hono'
import type { AppEnv } from '../deps.js'
import { API_JSON_BODY_LIMIT } from '../http/body-limits.js'
import { bodyLimit } from '../lib/bounded-body.js'
import { apiError } from './errors.js'

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
    body = JSON.parse(text, refuseProtoKey)
  } catch (error) {
    if (error instanceof ProtoKey)
      return {
        ok: false,
        response: apiError(
          c,
          400,
          'invalid_json',
          'The request body may not hold a key named __proto__ (in metadata or anywhere else).',
        ),
      }
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
  return { ok: true, body }
}

class ProtoKey extends Error {}

/**
 * JSON.parse makes `"__proto__"` an own key, but the schemas' objects and records leave it out
 * without a word (zod never copies it), so `{"metadata": {"__proto__": "x"}}` would be accepted and
 * the key lost. No field of the API is named so: the body is refused instead.
 */
function refuseProtoKey(key: string, value: unknown): unknown {
  if (key === '__proto__') throw new ProtoKey()
  return value
}
