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
 * Each attempt takes its slot in both counts before the password is hashed or the code computed
 * (one conditional upsert each), so a burst of parallel guesses gets at most the limit checked;
 * an attempt that turns out right gives its slots back (a completed sign-in starts the account's
 * count over). The account page's own checks (current password, codes) count the same.
 *
 * A stranger can thus lock one person's password sign-in for 15 minutes at most, at a time;
 * sessions already open are not affected, and the admin token stays a way in.
 */
import type { Db } from '../data/db.js'
import {
  giveBackRateLimitSlot,
  type RateLimitSlot,
  resetRateLimit,
  takeRateLimitSlot,
} from '../data/rate-limits.js'
import { sha256Hex } from '../lib/hash.js'
import { clientKey } from './token-guessing.js'

export const PASSWORD_LIMITS = {
  perAccount: { failures: 5, windowMs: 15 * 60_000 },
  perAddress: { failures: 10, windowMs: 5 * 60_000 },
} as const

/** Why a sign-in is refused now, and for how long. */
export type PasswordThrottled = { scope: 'account' | 'address'; retryAfterMs: number }

/** The slots one password or code attempt holds until it is known right or wrong. */
export type PasswordAttempt = { account: RateLimitSlot; address: RateLimitSlot }

// The e-mail is kept as a hash: the counters are no list of who works at the store.
const accountKey = async (email: string) =>
  `password:account:${(await sha256Hex(email.trim().toLowerCase())).slice(0, 32)}`
const addressKey = (address: string) => `password:address:${clientKey(address)}`

/**
 * Takes one attempt's slots for `email` and from `address` before anything is checked, or says
 * why the attempt is refused. A wrong attempt keeps them: they are its count.
 */
export async function takePasswordAttempt(
  db: Db,
  email: string,
  address: string,
  now: number,
): Promise<PasswordAttempt | PasswordThrottled> {
  const { perAccount, perAddress } = PASSWORD_LIMITS
  const key = await accountKey(email)
  const account = await takeRateLimitSlot(db, key, perAccount.failures, perAccount.windowMs, now)
  if ('refused' in account) return { scope: 'account', retryAfterMs: account.resetAt - now }
  const mine = addressKey(address)
  const from = await takeRateLimitSlot(db, mine, perAddress.failures, perAddress.windowMs, now)
  if (!('refused' in from)) return { account, address: from }
  // Not checked after all: the account's slot goes back.
  await giveBackRateLimitSlot(db, account)
  return { scope: 'address', retryAfterMs: from.resetAt - now }
}

/** The attempt was right (or never checked): its slots go back. */
export async function giveBackPasswordAttempt(db: Db, attempt: PasswordAttempt): Promise<void> {
  await giveBackRateLimitSlot(db, attempt.account)
  await giveBackRateLimitSlot(db, attempt.address)
}

/** A successful sign-in starts the account's count over (the address keeps its own). */
export async function forgetWrongPasswords(db: Db, email: string): Promise<void> {
  await resetRateLimit(db, await accountKey(email))
}
