/**
 * Guessing the admin token is throttled at both doors it opens, the merchant API and the dashboard
 * login, with counts kept in the database so they hold across processes and Workers isolates:
 *
 * - per client address: after 10 wrong tokens in a 5-minute window, every attempt from that
 *   address gets 429 until the window ends — the right token too, or a guesser would go on
 *   guessing and the one right guess would get through;
 * - everywhere: after 100 wrong tokens from all addresses together, at either door, in a
 *   15-minute window (a botnet, each address under its own limit), every login from anywhere
 *   gets 429 for 5 minutes, twice as long each time this recurs within an hour of the last, up
 *   to an hour. The API stays open to addresses under their own limit: a merchant's integration
 *   must not be locked out by strangers, and a generated token (190 bits) cannot be guessed
 *   at 10 tries per address per 5 minutes whatever the number of addresses.
 *
 * Only wrong tokens count. An attempt costs one read while nothing is engaged, made before the
 * token is checked and before any body is read.
 */

import type { Db } from '../data/db.js'
import { engageBackoff, hitRateLimit, readRateLimits, resetRateLimit } from '../data/rate-limits.js'
import type { Logger } from '../log.js'

export const GUESS_LIMITS = {
  perAddress: { failures: 10, windowMs: 5 * 60_000 },
  everywhere: { failures: 100, windowMs: 15 * 60_000 },
  // memoryMs stays within the hour housekeeping keeps rate-limit rows (src/payments/reconcile.ts).
  backoff: { firstMs: 5 * 60_000, maxMs: 60 * 60_000, memoryMs: 60 * 60_000 },
} as const

const EVERYWHERE_COUNT = 'admin-token:all'
const EVERYWHERE_BACKOFF = 'admin-token:backoff'
const addressCount = (address: string) => `admin-token:address:${clientKey(address)}`

/** Why attempts are refused now, and for how long. */
export type Throttled = { scope: 'address' | 'everywhere'; retryAfterMs: number }

/**
 * Whether token attempts from `address` at `door` are refused at `now`; one read, counting
 * nothing. The everywhere backoff closes the login only (see above).
 */
export async function tokenGuessingThrottled(
  db: Db,
  address: string,
  now: number,
  door: 'api' | 'login',
): Promise<Throttled | null> {
  const key = addressCount(address)
  const rows = await readRateLimits(db, door === 'login' ? [key, EVERYWHERE_BACKOFF] : [key])
  const backoff = rows.get(EVERYWHERE_BACKOFF)
  if (backoff && backoff.windowStart > now) {
    return { scope: 'everywhere', retryAfterMs: backoff.windowStart - now }
  }
  const { failures, windowMs } = GUESS_LIMITS.perAddress
  const count = rows.get(key)
  const current = count && count.windowStart >= now - (now % windowMs)
  if (current && count.count >= failures) {
    return { scope: 'address', retryAfterMs: count.windowStart + windowMs - now }
  }
  return null
}

/**
 * Counts a wrong token from `address`, and everywhere; at the limit everywhere, engages the
 * backoff and starts that count over, so each backoff costs a guesser another full allowance.
 */
export async function recordWrongToken(
  deps: { db: Db; log: Logger },
  address: string,
  now: number,
): Promise<void> {
  const { perAddress, everywhere, backoff } = GUESS_LIMITS
  await hitRateLimit(deps.db, addressCount(address), perAddress.failures, perAddress.windowMs, now)
  const all = await hitRateLimit(
    deps.db,
    EVERYWHERE_COUNT,
    everywhere.failures,
    everywhere.windowMs,
    now,
  )
  if (all.remaining > 0) return
  const engaged = await engageBackoff(deps.db, EVERYWHERE_BACKOFF, now, backoff)
  if (!engaged) return
  await resetRateLimit(deps.db, EVERYWHERE_COUNT)
  deps.log({
    level: 'warn',
    event: 'admin_token_backoff',
    level_reached: engaged.level,
    refused_for_s: Math.round((engaged.until - now) / 1000),
  })
}

/** `Retry-After` in whole seconds, at least 1. */
export function retryAfterSeconds(ms: number): string {
  return String(Math.max(1, Math.ceil(ms / 1000)))
}

/**
 * The part of a client address that names one client: an IPv4 address whole, an IPv6 address by
 * its /64, the block one subscriber is given (else each of its 2^64 addresses would count apart).
 */
export function clientKey(address: string): string {
  const ip = address.trim().toLowerCase().replace(/%.*$/, '').slice(0, 64)
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/.exec(ip)
  if (mapped) return mapped[1] as string
  if (!ip.includes(':')) return ip
  const [head = '', tail = ''] = ip.split('::', 2)
  const left = head ? head.split(':') : []
  const right = tail ? tail.split(':') : []
  const groups = ip.includes('::')
    ? [...left, ...Array<string>(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right]
    : left
  const prefix = groups.slice(0, 4).map((g) => g.replace(/^0+(?=.)/, '') || '0')
  return `${prefix.join(':')}::/64`
}
