/** Helpers of the webhook flow tests: signed events as the gateway builds them, inbox counts. */
import Database from 'better-sqlite3'
import { signGatewayMessage } from '../../src/client/index.js'
import { buildMessage } from '../../src/simulator/card/callback.js'
import type { CardTransaction } from '../../src/simulator/index.js'
import type { Paylinks } from '../support/harness.js'

/** A `cib.payment.updated` event for `tx` claiming `status`, signed with the simulator's key. */
export async function signedEvent(
  p: Paylinks,
  tx: CardTransaction,
  status: 'success' | 'failed',
): Promise<Record<string, unknown>> {
  const message = buildMessage('inferred', tx.returnUrl, status, tx.amount)
  return {
    event: 'cib.payment.updated',
    payment_status: status,
    transaction_id: tx.transactionId,
    cib_transaction_id: tx.cibTransactionId,
    order_id: tx.orderId,
    order_number: Number(tx.cibTransactionId),
    order_status: status === 'success' ? 2 : 6,
    amount: tx.amount,
    currency: '012',
    resp_code: status === 'success' ? '00' : '05',
    message,
    signature: await signGatewayMessage(message, p.simulator.keys.privateKeyPem),
  }
}

/** Posts a body to the webhook endpoint in process. */
export function postWebhook(p: Paylinks, body: string | Record<string, unknown>) {
  return p.app.request('/webhooks/gateway', {
    method: 'POST',
    body: typeof body === 'string' ? body : JSON.stringify(body),
    headers: { 'content-type': 'application/json' },
  })
}

/** The inbox rows as the SQLite file holds them, read through a connection of its own. */
export function inboxRows(
  p: Paylinks,
): { dedupe_key: string; payment_id: string | null; status: string; payload: string }[] {
  const file = new Database(p.deps.config.databasePath, { readonly: true, fileMustExist: true })
  try {
    return file
      .prepare('SELECT dedupe_key, payment_id, status, payload FROM webhook_events')
      .all() as ReturnType<typeof inboxRows>
  } finally {
    file.close()
  }
}

/** Counts the check endpoint calls of the app's real client (they still reach the simulator). */
export function countChecks(p: Paylinks): { readonly count: number } {
  const card = p.deps.gateway.card
  const check = card.check.bind(card)
  const counter = { count: 0 }
  card.check = (...args: Parameters<typeof check>) => {
    counter.count++
    return check(...args)
  }
  return counter
}
