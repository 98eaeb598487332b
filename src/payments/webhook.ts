/**
 * The gateway's `cib.payment.updated` webhook: raw body → signature → one inbox row per distinct
 * event → confirmation through the check endpoint (in the background) → transition.
 * Forged: 401, malformed: 400, anything else: 2xx, so the gateway stops retrying.
 */

import { type Background, describe } from '../background.js'
import { parseCardWebhook } from '../client/index.js'
import { markWebhookEvent, startingState } from '../data/webhooks.js'
import type { AppDeps } from '../env.js'
import { adoptFromWebhook } from './adopt.js'

export type WebhookAnswer =
  | { status: 200; body: { received: true; duplicate?: true; ignored?: true } }
  | { status: 400; body: { error: { code: 'malformed'; message: string } } }
  | { status: 401; body: { error: { code: 'bad_signature'; message: string } } }

type WebhookDeps = Pick<
  AppDeps,
  | 'db'
  | 'gateway'
  | 'merchantAccount'
  | 'clock'
  | 'log'
  | 'verifySignature'
  | 'sha256Hex'
  | 'recordDelivery'
  | 'confirmations'
>

/** Handles one delivery. Confirmation runs in `background`; the answer does not wait for it. */
export async function receiveWebhook(
  deps: WebhookDeps,
  background: Background,
  raw: string,
): Promise<WebhookAnswer> {
  let body: unknown
  try {
    body = JSON.parse(raw)
  } catch {
    return { status: 400, body: { error: { code: 'malformed', message: 'The body is not JSON.' } } }
  }
  let event: ReturnType<typeof parseCardWebhook>
  try {
    event = parseCardWebhook(body)
  } catch {
    return {
      status: 400,
      body: {
        error: { code: 'malformed', message: 'The body is not a cib.payment.updated event.' },
      },
    }
  }
  if (!(await deps.verifySignature(event.message ?? '', event.signature ?? ''))) {
    deps.log({
      level: 'warn',
      event: 'webhook_forged',
      cib_transaction_id: event.cib_transaction_id,
    })
    return {
      status: 401,
      body: { error: { code: 'bad_signature', message: 'The signature does not verify.' } },
    }
  }
  // The inbox row starts `processed` for a payment already paid (final: nothing to check) and
  // `ignored` for an unknown transaction, in the same write (see startingState).
  const recorded = await deps.recordDelivery(
    {
      dedupeKey: await deps.sha256Hex(raw),
      cibTransactionId: event.cib_transaction_id ?? null,
      paymentStatus: event.payment_status ?? null,
      payload: raw,
    },
    deps.clock(),
  )
  const payment = recorded.payment
  if (!recorded.isNew && recorded.event.status !== 'failed')
    return { status: 200, body: { received: true, duplicate: true } }
  // Settled at once (no payment, or already paid): the row was written so; a redelivery of a
  // failed event is brought to the same state.
  const start = startingState(payment)
  if (!payment || start.status !== 'received') {
    // A transaction created just before a crash: its signed message may name the payment.
    if (!payment && (await adoptFromWebhook(deps, background, event, recorded.event.id)))
      return { status: 200, body: { received: true } }
    if (!recorded.isNew) {
      await markWebhookEvent(
        deps.db,
        recorded.event.id,
        {
          status: start.status === 'ignored' ? 'ignored' : 'processed',
          paymentId: start.paymentId,
          error: start.lastError,
        },
        deps.clock(),
      )
    }
    return { status: 200, body: payment ? { received: true } : { received: true, ignored: true } }
  }
  background.run('webhook_confirm', async () => {
    try {
      const result = await deps.confirmations.confirm(deps, payment.id)
      // Unconfirmed (gateway unreachable): `failed`, so a redelivery is processed again; the
      // reconciler re-checks the payment meanwhile.
      await markWebhookEvent(
        deps.db,
        recorded.event.id,
        result.checked
          ? { status: 'processed', paymentId: payment.id }
          : { status: 'failed', paymentId: payment.id, error: 'the check endpoint did not answer' },
        deps.clock(),
      )
    } catch (error) {
      await markWebhookEvent(
        deps.db,
        recorded.event.id,
        { status: 'failed', paymentId: payment.id, error: describe(error) },
        deps.clock(),
      )
      throw error
    }
  })
  return { status: 200, body: { received: true } }
}
