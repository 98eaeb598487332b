/**
 * The reconciler: payments still waiting for an outcome are re-checked, with backoff, until they
 * settle or expire. A timer runs it on Node, a Cron trigger on Workers.
 */

import { describe } from '../background.js'
import { listPaymentsDueForCheck } from '../data/payments.js'
import { type ConfirmDeps, confirmPayment } from './confirm.js'

/** Re-checks up to `limit` due payments; returns how many changed state. */
export async function reconcile(
  deps: ConfirmDeps,
  limit = 50,
): Promise<{ checked: number; settled: number }> {
  const due = await listPaymentsDueForCheck(deps.db, deps.clock(), limit)
  let settled = 0
  for (const payment of due) {
    try {
      if ((await confirmPayment(deps, payment)).changed) settled++
    } catch (error) {
      deps.log({
        level: 'error',
        event: 'reconcile_failed',
        payment_id: payment.id,
        error: describe(error),
      })
    }
  }
  return { checked: due.length, settled }
}
