/**
 * Adopting a card transaction whose ids were never stored: the gateway created it, then the
 * process died before markPending (the payment stays `initiated`, and the reconciler later makes
 * it `error`). When the customer's return or the gateway's webhook names the transaction, the
 * check endpoint must vouch for it — the payment's amount, the merchant's account — before its
 * ids are stored (one conditional write) and its outcome applied as any other's. What the query
 * string or the webhook's unsigned fields say never decides.
 */

import type { Payment, TransitionCause } from '../../db/schema.js'
import type { Background } from '../background.js'
import {
  checkedResult,
  type InboxResult,
  markInboxEvent,
  NO_PAYMENT,
} from '../data/gateway-inbox.js'
import { adoptTransaction, getPaymentByReceiptId } from '../data/payments.js'
import { ADOPTABLE_STATUSES } from '../domain/payment-state.js'
import { receiptIdInMessage } from '../domain/return-url.js'
import { capped } from '../domain/webhook-delivery.js'
import { describe } from '../lib/describe-error.js'
import { applyCheck, type ConfirmDeps, type ConfirmResult, confirmPayment } from './confirm.js'
import { logTransition } from './transition-log.js'

/** What a return or a webhook says about the transaction (unsigned, so only a lead). */
export type TransactionLead = {
  cibTransactionId?: string | null | undefined
  transactionId?: string | null | undefined
}

export type Adoption =
  | { kind: 'adopted'; result: ConfirmResult }
  /** The check does not match this payment, or the lead is not a transaction id at all. */
  | { kind: 'refused' }
  /** The gateway does not know the transaction (yet): worth another try later. */
  | { kind: 'unknown' }

// Card network ids are ~10 digits and the gateway's transaction ids UUIDs; anything else, or
// longer, is not sent to the gateway nor stored.
const ID = /^[0-9A-Za-z_-]{1,64}$/
// The check's order id and number are short; anything longer is cut before it is stored.
const MAX_ORDER_TEXT = 64

/** Whether a payment may still adopt a transaction: no ids stored, `initiated` or `error`. */
export function isAdoptable(payment: Pick<Payment, 'status' | 'cibTransactionId'>): boolean {
  return (
    payment.cibTransactionId === null &&
    (ADOPTABLE_STATUSES as readonly string[]).includes(payment.status)
  )
}

/**
 * Checks the named transaction and adopts it when the check's amount and receiving account are
 * the payment's, then applies the check's outcome. Throws when the gateway cannot be asked.
 */
export async function adoptTransactionOf(
  deps: ConfirmDeps,
  payment: Payment,
  lead: TransactionLead,
  cause: TransitionCause,
): Promise<Adoption> {
  const cibTransactionId = lead.cibTransactionId?.trim() ?? ''
  if (!isAdoptable(payment) || !ID.test(cibTransactionId)) return { kind: 'refused' }
  const check = await deps.gateway.card.check(cibTransactionId, {
    amount: payment.amount,
    account: deps.merchantAccount,
  })
  // A 404 comes back as `pending` with neither amount nor account.
  if (check.amount === null && check.account === null) return { kind: 'unknown' }
  const mismatch =
    check.amount !== payment.amount
      ? 'amount'
      : check.account !== deps.merchantAccount
        ? 'account'
        : null
  if (mismatch) {
    deps.log({ level: 'warn', event: 'adoption_refused', payment_id: payment.id, mismatch })
    return { kind: 'refused' }
  }
  const transactionId =
    lead.transactionId && ID.test(lead.transactionId) ? lead.transactionId : null
  // The order id and number the check gives are the check's word, like amount and account.
  const stored = await adoptTransaction(
    deps.db,
    payment.id,
    {
      cibTransactionId,
      transactionId,
      orderId: capped(check.orderId, MAX_ORDER_TEXT),
      orderNumber: capped(check.orderNumber, MAX_ORDER_TEXT),
    },
    deps.clock(),
    cause,
  )
  // Another delivery adopting the same transaction at the same time: its outcome is applied the
  // same way. Any other id, or none: this transaction is not the payment's.
  if (stored.payment?.cibTransactionId !== cibTransactionId) return { kind: 'refused' }
  if (stored.changed) {
    logTransition(deps.log, payment, payment.status, 'pending', 'adopted')
  }
  return { kind: 'adopted', result: await applyCheck(deps, stored.payment, check, cause) }
}

/**
 * The return page's adoption: the payment as it now stands when the transaction named in the
 * query was adopted, else null (nothing adoptable, no match, or the gateway unreachable).
 */
export async function adoptOnReturn(
  deps: ConfirmDeps,
  payment: Payment,
  lead: TransactionLead,
): Promise<Payment | null> {
  if (!lead.cibTransactionId || !isAdoptable(payment)) return null
  try {
    const adoption = await adoptTransactionOf(deps, payment, lead, 'return')
    return adoption.kind === 'adopted' ? adoption.result.payment : null
  } catch (error) {
    deps.log({
      level: 'warn',
      event: 'adoption_check_failed',
      payment_id: payment.id,
      error: String((error as Error)?.name),
    })
    return null
  }
}

/** The parts of a verified `cib.payment.updated` event adoption reads. */
export type SignedEvent = {
  /** Verified: the signature covers it. */
  message: string | null
  cib_transaction_id: string | null
  transaction_id: string | null
}

/**
 * For a verified webhook naming a transaction no payment holds: when its signed `message` names
 * the receipt of an adoptable payment, adopts in `background` and records the outcome on the
 * inbox row `eventId` (`failed` while the gateway cannot tell, so a redelivery or the reconciler
 * tries again). Returns whether adoption was started.
 */
export async function adoptFromWebhook(
  deps: ConfirmDeps,
  background: Background,
  event: SignedEvent,
  eventId: string,
): Promise<boolean> {
  const payment = await namedPayment(deps, event)
  if (!payment || !isAdoptable(payment)) return false
  background.run('webhook_adopt', async () => {
    const { result } = await adoptionResult(deps, payment, event, 'webhook')
    await markInboxEvent(deps.db, eventId, result, deps.clock())
  })
  return true
}

/** The payment whose receipt an event's signed `message` names, when it names a transaction. */
async function namedPayment(deps: ConfirmDeps, event: SignedEvent): Promise<Payment | null> {
  const receiptId = receiptIdInMessage(event.message ?? '')
  if (!receiptId || !event.cib_transaction_id) return null
  return getPaymentByReceiptId(deps.db, receiptId)
}

/** How processing an inbox row ended: the row's result, and whether its payment changed state. */
export type EventOutcome = { result: InboxResult; changed: boolean }

const UNPLACED: EventOutcome = { result: { status: 'ignored', error: NO_PAYMENT }, changed: false }

/**
 * Processes a recorded event whose transaction no payment held when it arrived, as the webhook
 * would have (the reconciler's replay, src/payments/inbox-replay.ts), and says how its inbox row
 * ends. The payment its signed `message` names adopts the transaction when the check vouches for
 * it; a payment that holds this very transaction already (adopted since, by the customer's
 * return or an attempt cut short after its write) is confirmed. Throws when the gateway cannot
 * be asked.
 */
export async function processUnplacedEvent(
  deps: ConfirmDeps,
  event: SignedEvent,
  cause: TransitionCause,
): Promise<EventOutcome> {
  const payment = await namedPayment(deps, event)
  if (!payment) return UNPLACED
  if (payment.cibTransactionId !== null && payment.cibTransactionId === event.cib_transaction_id)
    return confirmationOutcome(deps, payment, cause)
  if (!isAdoptable(payment)) return UNPLACED
  return adoptionResult(deps, payment, event, cause)
}

/** Confirms a payment holding the event's transaction, as the webhook's confirmation does. */
export async function confirmationOutcome(
  deps: ConfirmDeps,
  payment: Payment,
  cause: TransitionCause,
): Promise<EventOutcome> {
  const confirmed = await confirmPayment(deps, payment, cause)
  return {
    result: checkedResult(confirmed.checked, payment.id),
    changed: confirmed.changed,
  }
}

/** Adopts the event's transaction for `payment` and says how the event's inbox row ends. */
async function adoptionResult(
  deps: ConfirmDeps,
  payment: Payment,
  event: SignedEvent,
  cause: TransitionCause,
): Promise<EventOutcome> {
  const lead = { cibTransactionId: event.cib_transaction_id, transactionId: event.transaction_id }
  let adoption: Adoption
  try {
    adoption = await adoptTransactionOf(deps, payment, lead, cause)
  } catch (error) {
    return {
      result: { status: 'failed', paymentId: payment.id, error: describe(error) },
      changed: false,
    }
  }
  if (adoption.kind === 'adopted') {
    // Adopted (now pending) and perhaps settled in the same go: a change either way, unless
    // another delivery had done both already.
    const now = adoption.result.payment.status
    return {
      result: { status: 'processed', paymentId: payment.id },
      changed: adoption.result.changed || now !== payment.status,
    }
  }
  if (adoption.kind === 'refused')
    return {
      result: { status: 'ignored', error: 'the check does not match the named payment' },
      changed: false,
    }
  return {
    result: {
      status: 'failed',
      paymentId: payment.id,
      error: 'the gateway does not know the transaction',
    },
    changed: false,
  }
}
