/**
 * Authentication of the merchant API: the admin token or an API key (`pl_live_…`, `pl_test_…`) in
 * `X-API-Key` or as an `Authorization: Bearer` token. The admin token is compared in constant time
 * with its stored hash; a key is found by the hash of the whole key. Guessing is throttled
 * (src/security/token-guessing.ts): wrong tokens and wrong keys count, per address and everywhere;
 * each request's slot is taken before its token is checked and given back when it was right.
 */
import type { Context, MiddlewareHandler } from 'hono'
import type { AppEnv } from '../app-deps.js'
import { principalOfKey } from '../auth/api-keys.js'
import type { Principal } from '../auth/principal.js'
import {
  giveBackTokenAttempt,
  recordWrongToken,
  retryAfterSeconds,
  takeTokenAttempt,
} from '../security/token-guessing.js'
import { checkAdminToken } from '../security/tokens.js'
import { apiError } from './errors.js'

/** The token a request presents, from either header; undefined when there is none. */
export function presentedToken(c: Context<AppEnv>): string | undefined {
  const apiKey = c.req.header('x-api-key')
  if (apiKey !== undefined) return apiKey.trim()
  const match = /^Bearer[ \t]+(\S+)\s*$/i.exec(c.req.header('authorization') ?? '')
  return match?.[1]
}

/**
 * Lets a request through with the admin token or a usable API key, as its principal (the policy
 * then decides what it may do); otherwise 401 with `WWW-Authenticate`, or
 * 429 with `Retry-After` while guessing is throttled for its address. A request
 * without a token guesses nothing: it is refused at once and counted nowhere.
 */
export function requireApiKey(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const token = presentedToken(c)
    if (token === undefined) return unauthorized(c, 'missing')
    const db = c.get('db')
    const address = c.get('clientIp')(c)
    const now = c.get('clock')()
    const attempt = await takeTokenAttempt(c.var, address, now, 'api')
    if ('scope' in attempt) {
      c.header('Retry-After', retryAfterSeconds(attempt.retryAfterMs))
      return apiError(
        c,
        429,
        'rate_limited',
        attempt.scope === 'checking'
          ? 'Too many calls from this address are being authenticated at this moment. Retry after the time in Retry-After.'
          : 'Too many wrong tokens from this address: every token is refused for a while. Retry after the time in Retry-After.',
      )
    }
    let principal: Principal | null = null
    if (await checkAdminToken(token, c.get('secrets').adminTokenHash)) principal = { kind: 'admin' }
    // No cache: a key revoked, or whose person was disabled, is refused from the next request on.
    else principal = await principalOfKey(c.var, token)
    if (!principal) {
      await recordWrongToken(c.var, attempt, now)
      return unauthorized(c, 'wrong')
    }
    await giveBackTokenAttempt(db, attempt)
    c.set('principal', principal)
    return next()
  }
}

function unauthorized(c: Context<AppEnv>, why: 'missing' | 'wrong') {
  c.header('WWW-Authenticate', 'Bearer realm="paylinks"')
  return apiError(
    c,
    401,
    'unauthorized',
    why === 'missing'
      ? 'Send an API key (or the admin token) in the X-API-Key header or as Authorization: Bearer <key>.'
      : 'This is neither a usable API key nor the admin token (a revoked key, or one whose person was disabled, is refused).',
  )
}
