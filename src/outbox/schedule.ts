/**
 * When a failed delivery (a webhook or an e-mail) is tried again: a first retry after 5 s (a
 * receiver restarting), then longer and longer waits, the last attempt about three days after the
 * first. Standard Webhooks' reference senders use a similar shape.
 */
const SECOND = 1000
const MINUTE = 60 * SECOND
const HOUR = 60 * MINUTE

/** The wait after the n-th failed attempt (index 0: after the first); past the end, no retry. */
export const RETRY_DELAYS_MS: readonly number[] = [
  5 * SECOND,
  5 * MINUTE,
  30 * MINUTE,
  2 * HOUR,
  5 * HOUR,
  10 * HOUR,
  10 * HOUR,
  10 * HOUR,
  10 * HOUR,
  10 * HOUR,
  10 * HOUR,
  10 * HOUR,
]

/** Attempts in all before a delivery is given up. */
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1

/** The time of the next attempt after `attempts` failed ones, or null to give up. */
export function nextAttemptAt(attempts: number, now: number): number | null {
  const delay = RETRY_DELAYS_MS[attempts - 1]
  return delay === undefined ? null : now + delay
}
