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
 * Only wrong tokens count. At the login each attempt takes its slot before the token is checked
 * (and before any body is read) and gives it back when the token was right: a burst of parallel
 * guesses, all checked before any failure is written, would otherwise all be checked. At the API
 * a wrong token takes its slot before it is answered (`countWrongApiToken`).
 */

import type { Db } from '../data/db.js'
import {
  engageBackoff,
  giveBackRateLimitSlot,
  hitRateLimit,
  type RateLimitSlot,
  readRateLimits,
  resetRateLimit,
  takeRateLimitSlot,
} from '../data/rate-limits.js'
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
 * nothing: every sign-in form asks before its body is read (the slot is taken by the admin
 * token's form alone, with `takeTokenAttempt`), and the API before it checks a token. The
 * everywhere backoff closes the login only (see above).
 */
export async function tokenGuessingThrottled(
  db: Db,
  address: string,
  now: number,
  door: 'api' | 'login' = 'login',
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

/** The slots one attempt at the login holds: its address's and everywhere's. */
export type TokenAttempt = { address: RateLimitSlot; all: RateLimitSlot }

type Deps = { db: Db; log: Logger }

/**
 * Takes the slots of one admin-token attempt at the login from `address`, before the token is
 * checked, or says why it is refused; the everywhere backoff closes the login (see above).
 */
export async function takeTokenAttempt(
  deps: Deps,
  address: string,
  now: number,
): Promise<TokenAttempt | Throttled> {
  const { db } = deps
  const backoff = (await readRateLimits(db, [EVERYWHERE_BACKOFF])).get(EVERYWHERE_BACKOFF)
  if (backoff && backoff.windowStart > now) {
    return { scope: 'everywhere', retryAfterMs: backoff.windowStart - now }
  }
  const { perAddress, everywhere } = GUESS_LIMITS
  const mine = await takeRateLimitSlot(
    db,
    addressCount(address),
    perAddress.failures,
    perAddress.windowMs,
    now,
  )
  if ('refused' in mine) return { scope: 'address', retryAfterMs: mine.resetAt - now }
  const all = await takeRateLimitSlot(
    db,
    EVERYWHERE_COUNT,
    everywhere.failures,
    everywhere.windowMs,
    now,
  )
  if (!('refused' in all)) return { address: mine, all }
  await giveBackRateLimitSlot(db, mine)
  const until = (await closeEverywhere(deps, now)) ?? now + GUESS_LIMITS.backoff.firstMs
  return { scope: 'everywhere', retryAfterMs: until - now }
}

/** The token was right: its slots go back, it was no guess. */
export async function giveBackTokenAttempt(db: Db, attempt: TokenAttempt): Promise<void> {
  await giveBackRateLimitSlot(db, attempt.address)
  await giveBackRateLimitSlot(db, attempt.all)
}

/**
 * The token was wrong: its slots stay taken. At the limit everywhere, the backoff is engaged and
 * that count starts over, so each backoff costs a guesser another full allowance.
 */
export async function recordWrongToken(
  deps: Deps,
  attempt: TokenAttempt,
  now: number,
): Promise<void> {
  if (attempt.all.count >= GUESS_LIMITS.everywhere.failures) await closeEverywhere(deps, now)
}

/**
 * A wrong token or key at the merchant API, counted as it is answered: its address's slot, taken
 * in one conditional statement, or why it is refused (then it is answered 429, not 401), and the
 * everywhere count, which engages the login's backoff. At the API the token is checked before the
 * slot is taken, unlike at the login: its tokens are generated (the admin token's 190 bits, a
 * key's 256), so what a burst must not get is more than the limit of answers, and a shop's own
 * parallel calls must neither wait on each other's slots nor pay two writes each.
 */
export async function countWrongApiToken(
  deps: Deps,
  address: string,
  now: number,
): Promise<Throttled | null> {
  const { perAddress, everywhere } = GUESS_LIMITS
  const mine = await takeRateLimitSlot(
    deps.db,
    addressCount(address),
    perAddress.failures,
    perAddress.windowMs,
    now,
  )
  if ('refused' in mine) return { scope: 'address', retryAfterMs: mine.resetAt - now }
  const all = await hitRateLimit(
    deps.db,
    EVERYWHERE_COUNT,
    everywhere.failures,
    everywhere.windowMs,
    now,
  )
  if (all.remaining === 0) await closeEverywhere(deps, now)
  return null
}

/** Engages the everywhere backoff and starts the count over; when it ends (null: read failed). */
async function closeEverywhere(deps: Deps, now: number): Promise<number | null> {
  const engaged = await engageBackoff(deps.db, EVERYWHERE_BACKOFF, now, GUESS_LIMITS.backoff)
  if (!engaged) {
    // Engaged by a concurrent caller: its end is in the row.
    const row = (await readRateLimits(deps.db, [EVERYWHERE_BACKOFF])).get(EVERYWHERE_BACKOFF)
    return row && row.windowStart > now ? row.windowStart : null
  }
  await resetRateLimit(deps.db, EVERYWHERE_COUNT)
  deps.log({
    level: 'warn',
    event: 'admin_token_backoff',
    level_reached: engaged.level,
    refused_for_s: Math.round((engaged.until - now) / 1000),
  })
  return engaged.until
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
