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
import { adoptTransaction, getPaymentByReceiptId } from '../data/payments.js'
import { markWebhookEvent } from '../data/webhooks.js'
import { ADOPTABLE_STATUSES } from '../domain/payment-state.js'
import { receiptIdInMessage } from '../domain/return-url.js'
import { describe } from '../lib/describe-error.js'
import { applyCheck, type ConfirmDeps, type ConfirmResult } from './confirm.js'
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
  const stored = await adoptTransaction(
    deps.db,
    payment.id,
    { cibTransactionId, transactionId },
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
 * inbox row `eventId` (`failed` while the gateway cannot tell, so a redelivery tries again).
 * Returns whether adoption was started.
 */
export async function adoptFromWebhook(
  deps: ConfirmDeps,
  background: Background,
  event: SignedEvent,
  eventId: string,
): Promise<boolean> {
  const receiptId = receiptIdInMessage(event.message ?? '')
  if (!receiptId || !event.cib_transaction_id) return false
  const payment = await getPaymentByReceiptId(deps.db, receiptId)
  if (!payment || !isAdoptable(payment)) return false
  const lead = { cibTransactionId: event.cib_transaction_id, transactionId: event.transaction_id }
  background.run('webhook_adopt', async () => {
    let adoption: Adoption | { kind: 'failed'; error: string }
    try {
      adoption = await adoptTransactionOf(deps, payment, lead, 'webhook')
    } catch (error) {
      adoption = { kind: 'failed', error: describe(error) }
    }
    const mark =
      adoption.kind === 'adopted'
        ? ({ status: 'processed', paymentId: payment.id } as const)
        : adoption.kind === 'refused'
          ? ({ status: 'ignored', error: 'the check does not match the named payment' } as const)
          : ({
              status: 'failed',
              paymentId: payment.id,
              error:
                adoption.kind === 'unknown'
                  ? 'the gateway does not know the transaction'
                  : adoption.error,
            } as const)
    await markWebhookEvent(deps.db, eventId, mark, deps.clock())
  })
  return true
}
