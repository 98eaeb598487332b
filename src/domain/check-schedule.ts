/**
 * Timing of the reconciler and of the "payment in progress" hint. The card network keeps a
 * payment page open for a limited session; past it a pending payment can only end as an outcome
 * the check endpoint reports.
 */

/**
 * The card page session length assumed by default: 20 minutes, the usual session timeout of the
 * card network's payment platform. An inference, so callers may pass their own.
 */
export const DEFAULT_SESSION_MS = 20 * 60_000

/** How long a payment may stay `initiated` (no gateway id yet) before it is taken as `error`. */
export const INITIATED_TIMEOUT_MS = 2 * 60_000

// Checks start soon after the customer could have finished, then back off to hourly.
const DELAYS_MS = [60_000, 2 * 60_000, 5 * 60_000, 10 * 60_000, 20 * 60_000, 30 * 60_000]
const MAX_DELAY_MS = 60 * 60_000

/** When to check a pending payment next, after `attempts` checks that gave no outcome. */
export function nextCheckAt(attempts: number, now: number): number {
  return now + (DELAYS_MS[attempts] ?? MAX_DELAY_MS)
}

/**
 * When a webhook's check still answers "pending", the check is repeated this long after it (each
 * delay counted from the first check). The gateway sends the webhook once the card network has
 * decided, and its check endpoint has been seen to lag behind by seconds: waiting for the
 * reconciler's first minute would keep the customer's receipt "being confirmed" for no reason.
 * The last one comes 20 s after the first, inside the ~30 s a Worker keeps a request's
 * `waitUntil` alive after its answer.
 */
export const WEBHOOK_RECHECK_DELAYS_MS: readonly number[] = [2_000, 5_000, 10_000, 20_000]

/**
 * A redelivery (the same event again) asks for a check of its payment only when none started in
 * this long: a gateway or a replayer sending one event many times costs one check every few
 * seconds at most.
 */
export const REDELIVERY_CHECK_INTERVAL_MS = 5_000

/** The least a customer is asked to wait before trying a link that is full of pending payments. */
export const MIN_RETRY_AFTER_MS = 30_000

/**
 * How long a customer should wait before trying again when pending payments fill a link's
 * places: until the oldest of them reaches the end of its card session (then it has paid or
 * will be released). When that is already past, its outcome is overdue and the reconciler is
 * about to settle it, so a short wait is suggested.
 */
export function retryAfterMs(
  oldestInFlightCreatedAt: number,
  now: number,
  sessionMs = DEFAULT_SESSION_MS,
): number {
  return Math.max(oldestInFlightCreatedAt + sessionMs - now, MIN_RETRY_AFTER_MS)
}

/**
 * How long an inbox row may stay `received` before the reconciler processes it itself: the
 * request that recorded it confirms it in its background within seconds (a check has a few
 * seconds' time-out, retried), so a row older than this was most likely dropped by a process that
 * died. Processing it twice is harmless (every transition is conditional), only a wasted check.
 */
export const INBOX_REPLAY_GRACE_MS = 30_000

/** When a `failed` inbox row is tried again, by its attempt count (the last delay repeats). */
export const INBOX_RETRY_DELAYS_MS: readonly number[] = [
  60_000,
  2 * 60_000,
  5 * 60_000,
  10 * 60_000,
  20 * 60_000,
  30 * 60_000,
  60 * 60_000,
]

/**
 * Attempts after which a `failed` inbox row is left as it is (about four hours of retries): the
 * gateway still cannot tell about its transaction. Written into the partial index of migration
 * 0022 as well (`webhook_events_unsettled_idx`), whose condition must be the queries' own.
 */
export const INBOX_MAX_ATTEMPTS = 10
