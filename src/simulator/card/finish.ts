/** Ending a card payment: the outcome, the return redirect, the invoice and the webhook. */
import type { SimContext } from '../context.js'
import { setInvoiceStatus } from '../invoices.js'
import type { CardOutcome, CardTransaction } from '../state.js'
import { returnRedirect, signedPair } from './callback.js'
import { OUTCOMES } from './outcomes.js'

/**
 * Records the outcome once (a finished payment stays as it is), computes where the browser goes
 * back to, marks a linked invoice PAID on approval and sends the webhook.
 */
export async function finishTransaction(
  ctx: SimContext,
  tx: CardTransaction,
  outcome: CardOutcome,
): Promise<void> {
  if (tx.outcome) return
  const spec = OUTCOMES[outcome]
  tx.outcome = outcome
  tx.step = 'done'
  tx.completedAt = ctx.clock()
  if (outcome === 'approved') {
    tx.approvalCode = ctx.ids.digits(6)
    if (tx.invoiceId) setInvoiceStatus(ctx, tx.invoiceId, 'PAID')
  }
  const { messageFormat, signingKeyPem } = ctx.config
  tx.returnRedirect = await returnRedirect(messageFormat, signingKeyPem, tx, spec.returnStatus)
  if (tx.webhookUrl) {
    const { message, signature } = await signedPair(
      messageFormat,
      signingKeyPem,
      tx,
      spec.webhookStatus,
    )
    ctx.webhooks.dispatch(tx, webhookPayload(tx, message, signature))
  }
}

/** The `cib.payment.updated` body: every field of the direct interface document. */
export function webhookPayload(
  tx: CardTransaction,
  message: string,
  signature: string,
): Record<string, unknown> {
  const spec = OUTCOMES[tx.outcome!]
  const success = spec.webhookStatus === 'success'
  return {
    event: 'cib.payment.updated',
    payment_status: spec.webhookStatus,
    transaction_id: tx.transactionId,
    cib_transaction_id: tx.cibTransactionId,
    order_id: tx.orderId,
    order_number: Number(tx.cibTransactionId),
    order_status: spec.orderStatus,
    amount: tx.amount,
    currency: '012',
    error_code: success ? null : Number(spec.errorCode),
    error_message: success ? null : spec.errorMessage,
    action_code: spec.actionCode,
    action_code_description: spec.actionCodeDescription.en,
    resp_code: success ? '00' : '05',
    resp_code_desc: success ? 'Approved' : 'Declined',
    message,
    signature,
  }
}

/** Expires an unpaid session whose time is up; expiry is noticed whenever the transaction is read. */
export async function refreshSession(
  ctx: SimContext,
  tx: CardTransaction,
): Promise<CardTransaction> {
  if (!tx.outcome && ctx.clock() >= tx.expiresAt)
    await finishTransaction(ctx, tx, 'session_expired')
  return tx
}

/** Expires every unpaid session whose time is up (the inspector calls it before showing state). */
export async function refreshAllSessions(ctx: SimContext): Promise<void> {
  for (const tx of ctx.state.transactions.values()) await refreshSession(ctx, tx)
}
