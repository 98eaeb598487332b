/**
 * Finishing what the gateway was told is done. A webhook is answered 2xx once its inbox row is
 * stored; its confirmation (or adoption) then runs in the background of that request, and a
 * process that dies meanwhile — or a Worker whose `waitUntil` time runs out — leaves the row
 * `received`. The reconciler processes such rows as the webhook would have, and retries `failed`
 * ones with backoff, a bounded number of times (src/data/gateway-inbox.ts `listInboxDue`), on its
 * timer (Node), at start-up (Node, for every row the previous process left) and on its Cron
 * (Workers). Processing twice is harmless: every payment transition is a conditional write.
 *
 * An `error` payment whose transaction was created but never stored is adopted here from the
 * inbox row of its webhook, whose signed message names its receipt. It cannot be found otherwise:
 * the card check is asked by `order_number`, which is the card network's transaction id the
 * gateway creates, and the creation takes no reference of ours to look a transaction up by
 * (docs/decisions/payment-events.md, "No lookup by order").
 */

import type { WebhookEvent } from '../../db/schema.js'
import { claimInboxEvent, listInboxDue, markInboxEvent } from '../data/gateway-inbox.js'
import { getPaymentById } from '../data/payments.js'
import { describe } from '../lib/describe-error.js'
import {
  confirmationOutcome,
  type EventOutcome,
  processUnplacedEvent,
  type SignedEvent,
} from './adopt.js'
import type { ConfirmDeps } from './confirm.js'

export interface InboxReplayOptions {
  /** Rows processed in one run at most. */
  limit?: number
  /**
   * `received` rows recorded before this time are processed without waiting for the grace
   * period: at a start, every row recorded before it belongs to a process that is gone.
   */
  receivedBy?: number
}

/**
 * Processes the inbox rows due (see the module comment); returns how many were processed, and
 * how many payments that moved to another state.
 */
export async function replayInbox(
  deps: ConfirmDeps,
  options: InboxReplayOptions = {},
): Promise<{ replayed: number; settled: number }> {
  const now = deps.clock()
  const due = await listInboxDue(deps.db, now, {
    limit: options.limit ?? 50,
    ...(options.receivedBy === undefined ? {} : { receivedBy: options.receivedBy }),
  })
  let replayed = 0
  let settled = 0
  for (const event of due) {
    // Taken by another run, or finished by the request's own background since it was read.
    if (!(await claimInboxEvent(deps.db, event, now))) continue
    let outcome: EventOutcome
    try {
      outcome = await processEvent(deps, event)
    } catch (error) {
      outcome = { result: { status: 'failed', error: describe(error) }, changed: false }
    }
    const { result } = outcome
    await markInboxEvent(deps.db, event.id, result, deps.clock(), true)
    replayed++
    if (outcome.changed) settled++
    const line = {
      event: 'webhook_replayed',
      webhook_event_id: event.id,
      status: result.status,
      attempts: event.attempts + 1,
    }
    deps.log(result.status === 'failed' ? { level: 'warn', ...line } : line)
  }
  return { replayed, settled }
}

/**
 * One row, as the receiver would process it: a delivery for a payment that holds its transaction
 * is confirmed through the check endpoint; any other names, in its signed message, the payment
 * that may adopt the transaction (src/payments/adopt.ts).
 */
async function processEvent(deps: ConfirmDeps, event: WebhookEvent): Promise<EventOutcome> {
  const payment = event.paymentId ? await getPaymentById(deps.db, event.paymentId) : null
  if (
    payment &&
    event.cibTransactionId !== null &&
    payment.cibTransactionId === event.cibTransactionId
  )
    return confirmationOutcome(deps, payment, 'reconciler')
  return processUnplacedEvent(deps, signedEventOf(event), 'reconciler')
}

/**
 * The signed parts of a stored event. Only verified deliveries are stored, and the payload is
 * their bounded copy (src/domain/webhook-delivery.ts `canonicalPayload`), so its `message` is the
 * one whose signature was checked.
 */
function signedEventOf(event: WebhookEvent): SignedEvent {
  let stored: Record<string, unknown> = {}
  try {
    const parsed: unknown = JSON.parse(event.payload)
    if (parsed !== null && typeof parsed === 'object') stored = parsed as Record<string, unknown>
  } catch {
    // A row whose payload is not JSON names no payment: it ends `ignored`.
  }
  const text = (value: unknown) => (typeof value === 'string' ? value : null)
  return {
    message: text(stored.message),
    cib_transaction_id: event.cibTransactionId,
    transaction_id: text(stored.transaction_id),
  }
}
