/**
 * Rate limit on link writes (create, change, delete): per client address and per token, so one
 * leaked token or one noisy script cannot flood the gateway with invoices or the table with links.
 */
import type { MiddlewareHandler } from 'hono'
import { hitRateLimit } from '../data/rate-limits.js'
import type { AppEnv } from '../deps.js'
import { apiError } from './errors.js'

/** Link writes allowed per window: per client address, and for the token across addresses. */
export const LINK_WRITE_LIMITS = { perIp: 60, perToken: 240, windowMs: 60_000 } as const

/** Counts every link write (valid or not) and answers 429 with `Retry-After` past a limit. */
export function limitLinkWrites(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const now = c.get('clock')()
    const { perIp, perToken, windowMs } = LINK_WRITE_LIMITS
    // Per API key by its id; the admin token by a prefix of its hash (never the token itself).
    const principal = c.get('principal')
    const tokenKey =
      principal?.kind === 'key'
        ? `api-links:key:${principal.keyId}`
        : `api-links:token:${c.get('secrets').adminTokenHash.slice(0, 16)}`
    const byIp = await hitRateLimit(
      c.get('db'),
      `api-links:ip:${c.get('clientIp')(c)}`,
      perIp,
      windowMs,
      now,
    )
    const byToken = byIp.allowed
      ? await hitRateLimit(c.get('db'), tokenKey, perToken, windowMs, now)
      : byIp
    if (byIp.allowed && byToken.allowed) return next()
    const resetAt = Math.max(byIp.allowed ? 0 : byIp.resetAt, byToken.allowed ? 0 : byToken.resetAt)
    c.header('Retry-After', String(Math.max(1, Math.ceil((resetAt - now) / 1000))))
    return apiError(
      c,
      429,
      'rate_limited',
      byIp.allowed
        ? `Too many link changes with this token: at most ${perToken} a minute. Retry after the time in Retry-After.`
        : `Too many link changes from this address: at most ${perIp} a minute. Retry after the time in Retry-After.`,
    )
  }
}
