/**
 * The gateway's `cib.payment.updated` webhook: raw body → signature → one inbox row per distinct
 * signed event and payment → confirmation through the check endpoint (in the background) →
 * transition. Only `message` is signed: no other field of the body decides anything here — the
 * outcome is the check endpoint's, and the inbox key is the signed pair (see data/gateway-inbox).
 * Forged: 401, malformed: 400, anything else: 2xx, so the gateway stops retrying.
 */

import type { Background } from '../background.js'
import { checkedResult, markInboxEvent, type RecordedDelivery } from '../data/gateway-inbox.js'
import type { AppDeps } from '../deps.js'
import { receiptIdInMessage } from '../domain/return-url.js'
import {
  canonicalPayload,
  canonicalSignature,
  capped,
  type DeliveryFields,
  MAX_TRANSACTION_ID_LENGTH,
  readDelivery,
  signedPairText,
  textOf,
} from '../domain/webhook-delivery.js'
import { describe } from '../lib/describe-error.js'
import { adoptFromWebhook, processUnplacedEvent } from './adopt.js'

export type WebhookAnswer =
  | { status: 200; body: { received: true; duplicate?: true; ignored?: true } }
  | { status: 400; body: { error: { code: 'malformed'; message: string } } }
  | { status: 401; body: { error: { code: 'bad_signature'; message: string } } }

/** What receiving a delivery needs: the app's dependencies of these names. */
export type WebhookDeps = Pick<
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

const RECEIVED = { status: 200, body: { received: true } } as const
const DUPLICATE = { status: 200, body: { received: true, duplicate: true } } as const

function malformed(message: string): WebhookAnswer {
  return { status: 400, body: { error: { code: 'malformed', message } } }
}
const NOT_JSON = malformed('The body is not JSON.')
const NOT_THE_EVENT = malformed('The body is not a cib.payment.updated event.')
const TOO_LONG_ID = malformed(
  `cib_transaction_id is longer than ${MAX_TRANSACTION_ID_LENGTH} characters.`,
)

/** Handles one delivery. Confirmation runs in `background`; the answer does not wait for it. */
export async function receiveWebhook(
  deps: WebhookDeps,
  background: Background,
  raw: string,
): Promise<WebhookAnswer> {
  const event = readDelivery(raw)
  if (event === 'json') return NOT_JSON
  if (event === 'shape') return NOT_THE_EVENT
  // The gateway's ids are about ten digits; a longer one is no transaction of ours, and refusing
  // it keeps every inbox key and log line bounded.
  if (event.cibTransactionId.length > MAX_TRANSACTION_ID_LENGTH) return TOO_LONG_ID
  // node:crypto answers at once: only a promise is awaited, as each await is a microtask hop
  // (docs/decisions/performance.md, "No await for what is already known").
  let verified = deps.verifySignature(event.message, event.signature)
  if (typeof verified !== 'boolean') verified = await verified
  if (!verified) {
    deps.log({
      level: 'warn',
      event: 'webhook_forged',
      cib_transaction_id: event.cibTransactionId,
    })
    return {
      status: 401,
      body: { error: { code: 'bad_signature', message: 'The signature does not verify.' } },
    }
  }
  // The inbox row starts `processed` for a payment already paid (final: nothing to check) and
  // `ignored` for an unknown transaction whose message names no receipt, in the same write (see
  // startingState); any other starts `received`, for the reconciler should this process die
  // before its background work has marked it.
  const signature = canonicalSignature(event.signature)
  let signedKey = deps.sha256Hex(signedPairText(event.message, signature))
  if (typeof signedKey !== 'string') signedKey = await signedKey
  const recorded = await deps.recordDelivery(
    {
      signedKey,
      cibTransactionId: event.cibTransactionId,
      paymentStatus: capped(event.paymentStatus),
      payload: canonicalPayload(event.body, signature),
      namesReceipt: receiptIdInMessage(event.message) !== null,
    },
    deps.clock(),
  )
  const payment = recorded.payment
  if (!payment) return noKnownPayment(deps, background, event, recorded)
  if (!recorded.isNew && recorded.event.status !== 'failed') {
    // The same event again: nothing new to record, but the gateway may be telling us the check
    // is overdue. A payment not yet paid gets a check, at most one every few seconds.
    if (payment.status !== 'paid') recheckOnRedelivery(deps, background, payment.id)
    return DUPLICATE
  }
  if (payment.status === 'paid') {
    // Final: nothing to check. A redelivery of a failed event is brought to the row's new state.
    if (!recorded.isNew)
      await markInboxEvent(
        deps.db,
        recorded.event.id,
        { status: 'processed', paymentId: payment.id },
        deps.clock(),
      )
    return RECEIVED
  }
  confirmEvent(deps, background, recorded.event.id, payment.id)
  return RECEIVED
}

/**
 * A verified delivery naming a transaction Paylinks does not have — made up by a replayer, or
 * one whose id was never stored (a crash between the gateway's answer and our write). The one
 * place where such a delivery is handled, new or not: the inbox holds it once per signed pair,
 * `ignored`, and it is answered 2xx so the gateway stops — unless its signed message names a
 * payment whose transaction was never stored, which is then adopted (src/payments/adopt.ts).
 * Such a row was recorded `received`, so that the reconciler adopts it should the adoption
 * started here never finish; one whose named payment cannot adopt is marked `ignored` here.
 * Nothing here waits for the gateway: the answer goes out once the row is stored.
 */
async function noKnownPayment(
  deps: WebhookDeps,
  background: Background,
  event: DeliveryFields,
  recorded: RecordedDelivery,
): Promise<WebhookAnswer> {
  // A transaction created just before a crash: its signed message may name the payment (a
  // redelivery too, so an earlier attempt the gateway could not answer is tried again).
  const signed = {
    message: event.message,
    cib_transaction_id: event.cibTransactionId,
    transaction_id: textOf(event.body.transaction_id),
  }
  if (await adoptFromWebhook(deps, background, signed, recorded.event.id)) return RECEIVED
  // Nothing to adopt: the row, still to process, ends as a replay of it would (`ignored`, or
  // `processed` should the named payment hold this transaction by now).
  const { id, status } = recorded.event
  if (status === 'received' || status === 'failed') {
    background.run('webhook_unplaced', async () => {
      const { result } = await processUnplacedEvent(deps, signed, 'webhook')
      await markInboxEvent(deps.db, id, result, deps.clock())
    })
  }
  if (!recorded.isNew)
    return { status: 200, body: { received: true, duplicate: true, ignored: true } }
  deps.log({
    level: 'warn',
    event: 'webhook_unknown_transaction',
    cib_transaction_id: event.cibTransactionId,
  })
  return { status: 200, body: { received: true, ignored: true } }
}

/**
 * Confirms the payment of a newly recorded event in `background` and notes the result on its
 * inbox row; a check that still answers "pending" is repeated on the short schedule. The gateway
 * sends this event once a payment is approved or declined, so every genuine delivery claims an
 * outcome; `payment_status` is unsigned and not read: any delivery the check contradicts so
 * far is followed up.
 */
export function confirmEvent(
  deps: WebhookDeps,
  background: Background,
  eventId: string,
  paymentId: string,
): void {
  // The confirmation's own follow-ups (outbound webhooks) run on this request's tracker too.
  const bound = { ...deps, background }
  background.run('webhook_confirm', async () => {
    try {
      const result = await deps.confirmations.confirm(bound, paymentId)
      // Unconfirmed (gateway unreachable): `failed`, so a redelivery is processed again; the
      // reconciler re-checks the payment meanwhile.
      await markInboxEvent(deps.db, eventId, checkedResult(result.checked, paymentId), deps.clock())
      if (result.checked && result.payment.status === 'pending')
        deps.confirmations.recheckSoon(bound, background, paymentId)
    } catch (error) {
      await markInboxEvent(
        deps.db,
        eventId,
        { status: 'failed', paymentId, error: describe(error) },
        deps.clock(),
      )
      throw error
    }
  })
}

/** A redelivery's check: skipped when one was asked for in the last few seconds. */
function recheckOnRedelivery(deps: WebhookDeps, background: Background, paymentId: string): void {
  const bound = { ...deps, background }
  background.run('webhook_recheck', async () => {
    const result = await deps.confirmations.confirmIfDue(bound, paymentId)
    if (result?.checked && result.payment.status === 'pending')
      deps.confirmations.recheckSoon(bound, background, paymentId)
  })
}
