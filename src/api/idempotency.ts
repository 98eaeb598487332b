/**
 * `Idempotency-Key` on the merchant API's writes (POST, PATCH, DELETE under /api/v1), as Stripe
 * does it: the first answer under a key is kept 24 hours per credential and replayed byte for byte
 * with `Idempotent-Replayed: true`; the same key on another request answers 422, and while the
 * first still runs, 409. The key is claimed in one conditional statement before the handler runs
 * (src/data/idempotency-keys.ts), so of concurrent retries exactly one runs. An answer that says
 * the request never ran (a refused body, a rate limit) or a server error keeps nothing: the client
 * fixes or retries it under the same key. Why: docs/decisions/idempotency.md.
 * A request without the header passes through untouched.
 */
import type { Context, MiddlewareHandler } from 'hono'
import {
  claimIdempotencyKey,
  releaseIdempotencyKey,
  type StoredAnswer,
  storeIdempotentAnswer,
} from '../data/idempotency-keys.js'
import type { AppEnv } from '../deps.js'
import type { Principal } from '../domain/principal.js'
import { readBoundedBody } from '../lib/bounded-body.js'
import { randomBase62, toHex } from '../lib/bytes.js'
import { describe } from '../lib/describe-error.js'
import { MAX_BODY_BYTES } from './body.js'
import type { ApiErrorCode } from './error-codes.js'
import { apiError } from './errors.js'
import { apiProblemText } from './problem-messages.js'

/** The request header, as product.md names it, and the answer header of a replay. */
export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key'
export const REPLAYED_HEADER = 'Idempotent-Replayed'
/** The longest key taken, in characters (Stripe's bound). */
export const MAX_IDEMPOTENCY_KEY_LENGTH = 255

const WRITES = new Set(['POST', 'PATCH', 'DELETE'])

/** The answer's headers a replay gives again; the others are the app's own, set on every answer. */
const KEPT_HEADERS = ['content-type', 'location'] as const

/**
 * 4xx codes answered before the endpoint did anything: Stripe keeps no result for a request that
 * failed validation or never began, so a corrected or later retry under the same key runs.
 */
const NOT_RUN: ReadonlySet<ApiErrorCode> = new Set<ApiErrorCode>([
  'unauthorized',
  'forbidden',
  'method_not_allowed',
  'invalid_json',
  'invalid_body',
  // A checkout asking for what this Paylinks does not offer (a product, custom fields): checked
  // before anything is written, so a corrected body under the same key runs.
  'unprocessable_body',
  // A payment was under way: like a request conflicting with one running, retried once it ends.
  'checkout_payment_in_progress',
  'invalid_query',
  'invalid_header',
  'unsupported_media_type',
  'payload_too_large',
  'rate_limited',
])

// Statuses whose answer has no body (the Response constructor refuses one).
const NULL_BODY = new Set([101, 204, 205, 304])

// A claim can find the row gone between its two statements (let go, or swept): it claims again.
const CLAIM_TRIES = 3

/** Whose keys these are: an API key's id, or the admin token (there is one). */
function credentialOf(principal: Principal): string {
  if (principal.kind === 'admin') return 'admin'
  return principal.kind === 'key' ? `key:${principal.keyId}` : `user:${principal.userId}`
}

/** The middleware; it runs after the key check and the route policy. */
export function idempotency(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (!WRITES.has(c.req.method)) return next()
    const key = c.req.header(IDEMPOTENCY_KEY_HEADER)
    if (key === undefined) return next()
    if (key === '') return badKey(c, { code: 'empty' })
    if (key.length > MAX_IDEMPOTENCY_KEY_LENGTH)
      return badKey(c, { code: 'too_long', params: { max: MAX_IDEMPOTENCY_KEY_LENGTH } })
    const principal = c.get('principal')
    if (!principal) throw new Error('idempotency runs after authentication')

    // The body is read here (within the API's bound) to fingerprint the request, and put back for
    // the handler.
    const body = await readBoundedBody(c.req.raw, MAX_BODY_BYTES)
    if (!body.ok)
      return apiError(
        c,
        413,
        'payload_too_large',
        `The request body must be at most ${MAX_BODY_BYTES} bytes.`,
      )
    if (c.req.raw.body) c.req.raw = new Request(c.req.raw, { body: body.bytes })
    const fingerprint = {
      method: c.req.method,
      path: c.req.path,
      bodySha256: toHex(new Uint8Array(await crypto.subtle.digest('SHA-256', body.bytes))),
    }
    const db = c.get('db')
    const credentialId = credentialOf(principal)
    const attempt = randomBase62(22)

    for (let i = 0; i < CLAIM_TRIES; i++) {
      const claim = await claimIdempotencyKey(db, {
        credentialId,
        key,
        fingerprint,
        attempt,
        now: c.get('clock')(),
      })
      if (claim.kind === 'gone') continue
      if (claim.kind !== 'claimed') {
        const { record } = claim
        if (
          record.method !== fingerprint.method ||
          record.path !== fingerprint.path ||
          record.bodySha256 !== fingerprint.bodySha256
        )
          return apiError(
            c,
            422,
            'idempotency_key_reused',
            'This Idempotency-Key was sent in the last 24 hours with another request (method, path or body); send a new key for a new request.',
          )
        if (claim.kind === 'running')
          return apiError(
            c,
            409,
            'idempotency_key_in_use',
            'The first request with this Idempotency-Key is still running; retry once it has been answered.',
          )
        return replay(record.status ?? 500, record.headers ?? [], record.body)
      }

      let ran = false
      try {
        await next()
        ran = true
      } finally {
        // A handler that threw leaves nothing kept (Hono usually answers it as a 500 first).
        if (!ran) await letGo(c, () => releaseIdempotencyKey(db, credentialId, key, attempt))
      }
      const answer = await keptAnswer(c.res)
      await letGo(c, () =>
        answer
          ? storeIdempotentAnswer(db, credentialId, key, attempt, answer)
          : releaseIdempotencyKey(db, credentialId, key, attempt),
      )
      return
    }
    // Claimed and let go by others three times over in a moment: as busy as a running one.
    return apiError(
      c,
      409,
      'idempotency_key_in_use',
      'The first request with this Idempotency-Key is still running; retry once it has been answered.',
    )
  }
}

/** 400 naming the header, in the API's words for the problem. */
function badKey(c: Context<AppEnv>, problem: Parameters<typeof apiProblemText>[1]) {
  const text = apiProblemText(IDEMPOTENCY_KEY_HEADER, problem)
  return apiError(c, 400, 'invalid_header', `The header ${IDEMPOTENCY_KEY_HEADER} is not valid.`, {
    [IDEMPOTENCY_KEY_HEADER]: text,
  })
}

/** The answer to keep, or null for one that keeps nothing (a server error, a request never run). */
async function keptAnswer(res: Response): Promise<StoredAnswer | null> {
  if (res.status >= 500) return null
  const body = new Uint8Array(await res.clone().arrayBuffer())
  if (res.status >= 400 && NOT_RUN.has(errorCodeOf(body))) return null
  const headers: [string, string][] = []
  for (const name of KEPT_HEADERS) {
    const value = res.headers.get(name)
    if (value !== null) headers.push([name, value])
  }
  return { status: res.status, headers, body }
}

function errorCodeOf(body: Uint8Array): ApiErrorCode {
  try {
    return (JSON.parse(new TextDecoder().decode(body)) as { error: { code: ApiErrorCode } }).error
      .code
  } catch {
    return 'internal'
  }
}

function replay(status: number, headers: [string, string][], body: Uint8Array | null): Response {
  const out = new Headers(headers)
  out.set(REPLAYED_HEADER, 'true')
  return new Response(NULL_BODY.has(status) || !body ? null : new Uint8Array(body), {
    status,
    headers: out,
  })
}

/**
 * Stores or lets go of the key after the answer is made. The answer goes out even when this
 * fails (the key then stays claimed until a retry takes over a stale run); the log line names
 * neither the key nor the body.
 */
async function letGo(c: Context<AppEnv>, write: () => Promise<unknown>): Promise<void> {
  try {
    await write()
  } catch (error) {
    c.get('log')({ level: 'error', event: 'idempotency_store_failed', error: describe(error) })
  }
}
