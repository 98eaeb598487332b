/** What the inspector shows: the simulator's state as plain JSON (no secret ever: seeds are not stored in records). */
import { refreshAllSessions } from './card/finish.js'
import { checkJson, paymentUrl } from './card/transaction.js'
import type { SimContext } from './context.js'
import { invoiceJson } from './invoices.js'
import { directOperationJson } from './operations.js'
import { isoUtc } from './time.js'
import { dzdText } from './wire/amounts.js'

/** A snapshot of everything the simulator holds, newest first. */
export interface InspectSnapshot {
  transactions: Record<string, unknown>[]
  operations: Record<string, unknown>[]
  invoices: Record<string, unknown>[]
  webhooks: Record<string, unknown>[]
}

const newestFirst = <T extends { createdAt: number }>(items: Iterable<T>): T[] =>
  [...items].sort((a, b) => b.createdAt - a.createdAt)

/** Takes a snapshot (expiring sessions whose time is up first). */
export async function inspectState(ctx: SimContext): Promise<InspectSnapshot> {
  await refreshAllSessions(ctx)
  const { state } = ctx
  return {
    transactions: newestFirst(state.transactions.values()).map((tx) => ({
      transaction_id: tx.transactionId,
      cib_transaction_id: tx.cibTransactionId,
      order_id: tx.orderId,
      via: tx.via,
      sandbox: tx.sandbox,
      account: tx.account,
      amount: dzdText(tx.amount),
      full_name: tx.fullName,
      language: tx.language,
      return_url: tx.returnUrl,
      webhook_url: tx.webhookUrl,
      invoice_id: tx.invoiceId,
      keep_return_url: tx.keepReturnUrl,
      merchant_order_id: tx.merchantOrderId,
      step: tx.step,
      outcome: tx.outcome,
      payment_url: paymentUrl(ctx, tx),
      return_redirect: tx.returnRedirect,
      created_at: isoUtc(tx.createdAt),
      expires_at: isoUtc(tx.expiresAt),
      completed_at: tx.completedAt === null ? null : isoUtc(tx.completedAt),
      check: checkJson(tx),
    })),
    operations: newestFirst(state.operations.values()).map((op) => ({
      merchant: op.merchantId,
      via: op.via,
      ...directOperationJson(ctx, op),
      details: op.details,
    })),
    invoices: newestFirst(state.invoices.values()).map((inv) => ({
      merchant: inv.merchantId,
      ...invoiceJson(inv),
    })),
    webhooks: newestFirst(state.deliveries.values()).map((d) => ({
      id: d.id,
      transaction_id: d.transactionId,
      cib_transaction_id: d.cibTransactionId,
      url: d.url,
      state: d.state,
      note: d.note,
      created_at: isoUtc(d.createdAt),
      next_attempt_at: d.nextAttemptAt === null ? null : isoUtc(d.nextAttemptAt),
      attempts: d.attempts.map((a) => ({ ...a, at: isoUtc(a.at) })),
      payload: d.payload,
    })),
  }
}
