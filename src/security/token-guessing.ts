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
 * Only wrong tokens count, but each attempt takes its slot before the token is checked (and
 * before any body is read) and gives it back when the token was right: a burst of parallel
 * guesses, all checked before any failure is written, would otherwise all be checked.
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
// Wrong ones alone (the slots count those being checked too): tells a guesser from a busy client.
const addressWrong = (address: string) => `admin-token:wrong:${clientKey(address)}`

/**
 * Why attempts are refused now, and for how long. `checking`: the address's slots are held by
 * requests being checked at this moment, not by wrong tokens (an integration sending many calls
 * at once); they come back within milliseconds.
 */
export type Throttled = { scope: 'address' | 'everywhere' | 'checking'; retryAfterMs: number }

/**
 * Whether token attempts from `address` at the login are refused at `now`; one read, counting
 * nothing: every sign-in form asks before its body is read (the slot is taken by the admin
 * token's form alone, with `takeTokenAttempt`).
 */
export async function tokenGuessingThrottled(
  db: Db,
  address: string,
  now: number,
): Promise<Throttled | null> {
  const key = addressCount(address)
  const rows = await readRateLimits(db, [key, EVERYWHERE_BACKOFF])
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
 * The slots one token attempt holds: its address's, and at the login everywhere's too; and the
 * key its address's wrong tokens alone are counted under.
 */
export type TokenAttempt = {
  door: 'api' | 'login'
  address: RateLimitSlot
  all?: RateLimitSlot
  wrongKey: string
}

type Deps = { db: Db; log: Logger }

/**
 * Takes the slots of one token attempt from `address` at `door`, before the token is checked, or
 * says why it is refused. The everywhere backoff, and the everywhere count's own limit, close the
 * login only (see above): the API takes its address's slot alone.
 */
export async function takeTokenAttempt(
  deps: Deps,
  address: string,
  now: number,
  door: 'api' | 'login',
): Promise<TokenAttempt | Throttled> {
  const { db } = deps
  if (door === 'login') {
    const backoff = (await readRateLimits(db, [EVERYWHERE_BACKOFF])).get(EVERYWHERE_BACKOFF)
    if (backoff && backoff.windowStart > now) {
      return { scope: 'everywhere', retryAfterMs: backoff.windowStart - now }
    }
  }
  const { perAddress, everywhere } = GUESS_LIMITS
  const mine = await takeRateLimitSlot(
    db,
    addressCount(address),
    perAddress.failures,
    perAddress.windowMs,
    now,
  )
  if ('refused' in mine) {
    // At the API, a refusal owed to calls in flight says so, with a short wait: a shop's own
    // integration must not be told to wait out the window for its own parallel calls.
    if (door === 'api') {
      const key = addressWrong(address)
      const wrong = (await readRateLimits(db, [key])).get(key)
      const current = wrong && wrong.windowStart >= now - (now % perAddress.windowMs)
      if (!current || wrong.count < perAddress.failures) {
        return { scope: 'checking', retryAfterMs: 1000 }
      }
    }
    return { scope: 'address', retryAfterMs: mine.resetAt - now }
  }
  const wrongKey = addressWrong(address)
  if (door === 'api') return { door, address: mine, wrongKey }
  const all = await takeRateLimitSlot(
    db,
    EVERYWHERE_COUNT,
    everywhere.failures,
    everywhere.windowMs,
    now,
  )
  if (!('refused' in all)) return { door, address: mine, all, wrongKey }
  await giveBackRateLimitSlot(db, mine)
  const until = (await closeEverywhere(deps, now)) ?? now + GUESS_LIMITS.backoff.firstMs
  return { scope: 'everywhere', retryAfterMs: until - now }
}

/** The token was right: its slots go back, it was no guess. */
export async function giveBackTokenAttempt(db: Db, attempt: TokenAttempt): Promise<void> {
  await giveBackRateLimitSlot(db, attempt.address)
  if (attempt.all) await giveBackRateLimitSlot(db, attempt.all)
}

/**
 * The token was wrong: its slots stay taken. At the API it counts everywhere now (the API is not
 * refused by that count); at the limit everywhere, the backoff is engaged and that count starts
 * over, so each backoff costs a guesser another full allowance.
 */
export async function recordWrongToken(
  deps: Deps,
  attempt: TokenAttempt,
  now: number,
): Promise<void> {
  const { perAddress, everywhere } = GUESS_LIMITS
  await hitRateLimit(deps.db, attempt.wrongKey, perAddress.failures, perAddress.windowMs, now)
  const reached = attempt.all
    ? attempt.all.count >= everywhere.failures
    : (await hitRateLimit(deps.db, EVERYWHERE_COUNT, everywhere.failures, everywhere.windowMs, now))
        .remaining === 0
  if (reached) await closeEverywhere(deps, now)
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
