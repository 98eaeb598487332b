/**
 * The reconciler: webhook deliveries acknowledged but never processed are processed (a process
 * that died, see inbox-replay.ts), and payments still waiting for an outcome are re-checked, with
 * backoff, until they settle or expire; checkouts past their time are expired. A timer runs it on
 * Node, and once at start-up; a Cron trigger on Workers.
 */

import { expireDueCheckouts } from '../data/checkouts.js'
import { purgeIdempotencyKeys } from '../data/idempotency-keys.js'
import { failStaleInitiated, listPaymentsDueForCheck } from '../data/payments.js'
import { purgeRateLimits } from '../data/rate-limits.js'
import { purgeExpiredSessions } from '../data/sessions.js'
import { purgeSpentTokens } from '../data/spent-tokens.js'
import { INITIATED_TIMEOUT_MS } from '../domain/check-schedule.js'
import { describe } from '../lib/describe-error.js'
import { type ConfirmDeps, confirmPayment } from './confirm.js'
import { replayInbox } from './inbox-replay.js'
import { logTransition } from './transition-log.js'

const RATE_LIMIT_ROWS_KEPT_MS = 60 * 60_000

/**
 * Ends payments a dead process left `initiated` (no gateway id), processes the inbox rows due
 * (`received` ones recorded before `options.receivedBy` at once: a start passes its own time),
 * then re-checks up to `limit` due payments; returns how many changed state.
 */
export async function reconcile(
  deps: ConfirmDeps,
  limit = 50,
  options: { receivedBy?: number } = {},
): Promise<{ checked: number; settled: number; replayed: number }> {
  const now = deps.clock()
  // Killed between writing the row and hearing from the gateway: no customer reached a card
  // page, and the row would otherwise hold one of its link's places for ever.
  const stale = await failStaleInitiated(deps.db, now - INITIATED_TIMEOUT_MS, now)
  for (const payment of stale) {
    logTransition(deps.log, payment, 'initiated', 'error', 'gateway_timeout')
  }
  // Rate-limit windows last an hour at most; spent captcha solutions and sessions until they
  // expire; the API's Idempotency-Keys 24 hours.
  await purgeRateLimits(deps.db, now, RATE_LIMIT_ROWS_KEPT_MS)
  await purgeSpentTokens(deps.db, now)
  await purgeExpiredSessions(deps.db, now)
  await purgeIdempotencyKeys(deps.db, now)
  // Before the payments' own checks: a replayed confirmation settles its payment, which then
  // needs no check of its own, and an adopted one is pending from now on.
  const replay = await replayInbox(deps, { limit, ...options })
  const due = await listPaymentsDueForCheck(deps.db, now, limit)
  let settled = stale.length + replay.settled
  for (const payment of due) {
    try {
      if ((await confirmPayment(deps, payment, 'reconciler')).changed) settled++
    } catch (error) {
      deps.log({
        level: 'error',
        event: 'reconcile_failed',
        payment_id: payment.id,
        error: describe(error),
      })
    }
  }
  // After the checks: a payment they settled has completed its checkout, or frees it to expire.
  await expireCheckouts(deps, now)
  return { checked: due.length, settled, replayed: replay.replayed }
}

/** How many checkouts one run expires at most; the next run takes the rest. */
const CHECKOUTS_PER_RUN = 200

/**
 * Expires the open checkouts past their time that no payment holds (one being paid waits for its
 * outcome: docs/decisions/checkouts.md); each expiry writes its checkout.expired event.
 */
async function expireCheckouts(deps: ConfirmDeps, now: number): Promise<void> {
  try {
    const expired = await expireDueCheckouts(deps.db, now, CHECKOUTS_PER_RUN)
    for (const checkout of expired)
      deps.log({ level: 'info', event: 'checkout_expired', checkout_id: checkout.id })
  } catch (error) {
    deps.log({ level: 'error', event: 'checkout_expiry_failed', error: describe(error) })
  }
}
