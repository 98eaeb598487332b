/**
 * Confirmations asked for by webhooks. A gateway that retries, or sends the same event many
 * times, must not turn into as many checks: for each payment at most one check runs at a time,
 * and requests that arrive meanwhile share one follow-up check, started after the running one
 * ends (so a change the gateway made in between is still seen). At most `concurrency` checks run
 * at once in all; the rest wait their turn. Each check reads the payment when its turn comes.
 */
import { getPaymentById } from '../data/payments.js'
import { type ConfirmDeps, type ConfirmResult, confirmPayment } from './confirm.js'

export interface ConfirmQueue {
  /** Confirms the payment through the check endpoint, sharing work with requests in flight. */
  confirm(deps: ConfirmDeps, paymentId: string): Promise<ConfirmResult>
}

type Slot = { running: Promise<ConfirmResult>; next?: Promise<ConfirmResult> | undefined }

export function createConfirmQueue(concurrency = 8): ConfirmQueue {
  const slots = new Map<string, Slot>()
  let active = 0
  const waiting: Array<() => void> = []

  async function check(deps: ConfirmDeps, paymentId: string): Promise<ConfirmResult> {
    if (active >= concurrency) await new Promise<void>((resolve) => waiting.push(resolve))
    else active++
    try {
      const payment = await getPaymentById(deps.db, paymentId)
      if (!payment) throw new Error(`No payment ${paymentId}`)
      return await confirmPayment(deps, payment)
    } finally {
      const wake = waiting.shift()
      if (wake) wake()
      else active--
    }
  }

  return {
    confirm(deps, paymentId) {
      const slot = slots.get(paymentId)
      if (slot) {
        slot.next ??= slot.running.catch(() => {}).then(() => check(deps, paymentId))
        return slot.next
      }
      const fresh: Slot = { running: check(deps, paymentId) }
      slots.set(paymentId, fresh)
      const advance = (): void => {
        if (fresh.next) {
          fresh.running = fresh.next
          fresh.next = undefined
          fresh.running.then(advance, advance)
        } else slots.delete(paymentId)
      }
      fresh.running.then(advance, advance)
      return fresh.running
    },
  }
}
