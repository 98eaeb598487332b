/**
 * Guessing a person's password (or second-step code) is throttled twice, with counts in the
 * database so they hold across processes and Workers isolates:
 *
 * - per account: after 5 wrong passwords or codes for one e-mail in a 15-minute window, that
 *   account's sign-in is refused until the window ends, whatever the address — the right
 *   password too, or a guesser would go on until one is right. Unknown e-mails count the same,
 *   so the answer does not tell which e-mails have accounts;
 * - per address: after 10 wrong ones from one client address (an IPv6 address by its /64) in a
 *   5-minute window, every sign-in from it is refused until the window ends (the admin token's
 *   own limit, src/security/token-guessing.ts, is checked before either).
 *
 * A stranger can thus lock one person's password sign-in for 15 minutes at most, at a time;
 * sessions already open are not affected, and the admin token stays a way in.
 */
import type { Db } from '../data/db.js'
import { hitRateLimit, readRateLimits, resetRateLimit } from '../data/rate-limits.js'
import { sha256Hex } from '../lib/hash.js'
import { clientKey } from './token-guessing.js'

export const PASSWORD_LIMITS = {
  perAccount: { failures: 5, windowMs: 15 * 60_000 },
  perAddress: { failures: 10, windowMs: 5 * 60_000 },
} as const

/** Why a sign-in is refused now, and for how long. */
export type PasswordThrottled = { scope: 'account' | 'address'; retryAfterMs: number }

// The e-mail is kept as a hash: the counters are no list of who works at the store.
const accountKey = async (email: string) =>
  `password:account:${(await sha256Hex(email.trim().toLowerCase())).slice(0, 32)}`
const addressKey = (address: string) => `password:address:${clientKey(address)}`

/** Whether sign-in for `email` from `address` is refused at `now`; one read, counting nothing. */
export async function passwordGuessingThrottled(
  db: Db,
  email: string,
  address: string,
  now: number,
): Promise<PasswordThrottled | null> {
  const account = await accountKey(email)
  const rows = await readRateLimits(db, [account, addressKey(address)])
  for (const [scope, key, limit] of [
    ['account', account, PASSWORD_LIMITS.perAccount],
    ['address', addressKey(address), PASSWORD_LIMITS.perAddress],
  ] as const) {
    const row = rows.get(key)
    if (row && row.windowStart >= now - (now % limit.windowMs) && row.count >= limit.failures)
      return { scope, retryAfterMs: row.windowStart + limit.windowMs - now }
  }
  return null
}

/** Counts one wrong password or code for `email` and from `address`. */
export async function recordWrongPassword(
  db: Db,
  email: string,
  address: string,
  now: number,
): Promise<void> {
  const { perAccount, perAddress } = PASSWORD_LIMITS
  await hitRateLimit(db, await accountKey(email), perAccount.failures, perAccount.windowMs, now)
  await hitRateLimit(db, addressKey(address), perAddress.failures, perAddress.windowMs, now)
}

/** A successful sign-in starts the account's count over (the address keeps its own). */
export async function forgetWrongPasswords(db: Db, email: string): Promise<void> {
  await resetRateLimit(db, await accountKey(email))
}
