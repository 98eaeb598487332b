/**
 * Authentication of the merchant API: the admin token or an API key (`pl_live_…`, `pl_test_…`) in
 * `X-API-Key` or as an `Authorization: Bearer` token. The admin token is compared in constant time
 * with its stored hash; a key is found by the hash of the whole key. Guessing is throttled
 * (src/security/token-guessing.ts): wrong tokens and wrong keys count, per address and everywhere;
 * a wrong one takes its address's slot before it is answered, so a burst gets at most the limit
 * of 401s and 429s after them.
 */
import type { Context, MiddlewareHandler } from 'hono'
import { principalOfKey } from '../auth/api-keys.js'
import type { Principal } from '../auth/principal.js'
import type { AppEnv } from '../deps.js'
import {
  countWrongApiToken,
  retryAfterSeconds,
  tokenGuessingThrottled,
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
    const throttled = await tokenGuessingThrottled(db, address, now, 'api')
    if (throttled) return rateLimited(c, throttled.retryAfterMs)
    let principal: Principal | null = null
    if (await checkAdminToken(token, c.get('secrets').adminTokenHash)) principal = { kind: 'admin' }
    // No cache: a key revoked, or whose person was disabled, is refused from the next request on.
    else principal = await principalOfKey(c.var, token)
    if (!principal) {
      // Counted before it is answered: of a burst of wrong tokens, the ones past the limit are
      // answered 429, not 401 (see countWrongApiToken for why the check itself comes first here).
      const over = await countWrongApiToken(c.var, address, now)
      if (over) return rateLimited(c, over.retryAfterMs)
      return unauthorized(c, 'wrong')
    }
    c.set('principal', principal)
    return next()
  }
}

function rateLimited(c: Context<AppEnv>, retryAfterMs: number) {
  c.header('Retry-After', retryAfterSeconds(retryAfterMs))
  return apiError(
    c,
    429,
    'rate_limited',
    'Too many wrong tokens from this address: every token is refused for a while. Retry after the time in Retry-After.',
  )
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
