/**
 * The gateway's inbox: its webhook deliveries, each recorded once whatever the number of
 * redeliveries. A row's key is the delivery's signed pair together with the transaction it names,
 * when Paylinks has that transaction (see `inboxKey`). A row still `received` or `failed` is work the gateway
 * was told is done: the reconciler finishes it if the request that recorded it could not
 * (`listInboxDue`, `claimInboxEvent`; src/payments/inbox-replay.ts).
 */
import { asc, eq, type SQL, sql } from 'drizzle-orm'
import {
  type Payment,
  type WebhookEvent,
  type WebhookEventStatus,
  webhookEvents,
} from '../../db/schema.js'
import {
  INBOX_MAX_ATTEMPTS,
  INBOX_REPLAY_GRACE_MS,
  INBOX_RETRY_DELAYS_MS,
} from '../domain/check-schedule.js'
import { newWebhookEventId } from '../domain/ids.js'
import type { Db } from './db.js'
import { getPaymentStateByCibTransactionId } from './payments.js'
import { prepared } from './prepared.js'

export type InboxDelivery = {
  /** The row's key (see `inboxKey`): a second delivery with the same key is a redelivery. */
  dedupeKey: string
  cibTransactionId: string | null
  paymentStatus: string | null
  /** The event as stored: a bounded copy of its known fields (it carries no card data). */
  payload: string
  /**
   * Where the event starts: `received` (to be processed), or already `processed` / `ignored` when
   * the receiver could tell at once (a payment already paid, no such payment).
   */
  status?: 'received' | 'processed' | 'ignored'
  paymentId?: string | null
  lastError?: string | null
}

/** An inbox row's values for a delivery received at `now`: what every recorder writes. */
export function inboxRow(delivery: InboxDelivery, now: number) {
  const status = delivery.status ?? 'received'
  return {
    id: newWebhookEventId(now),
    dedupeKey: delivery.dedupeKey,
    cibTransactionId: delivery.cibTransactionId,
    paymentStatus: delivery.paymentStatus,
    payload: delivery.payload,
    receivedAt: now,
    status,
    paymentId: delivery.paymentId ?? null,
    lastError: delivery.lastError ?? null,
    processedAt: status === 'received' ? null : now,
    attempts: status === 'received' ? 0 : 1,
  }
}

/** The payment a delivery is about, as far as its recording needs it. */
export type DeliveryPayment = Pick<Payment, 'id' | 'status'> | null

/**
 * Where a delivery's event starts, from its payment: already paid (final, so nothing to check) →
 * `processed`; otherwise `received`, to be confirmed with a check. None known: `received` when
 * its signed message names a receipt (the transaction may be one a crash kept from being stored,
 * to be adopted, src/payments/adopt.ts), so that the reconciler adopts it should this process die
 * first; else `ignored` at once — nothing could ever place it, and it is never tried again.
 */
export function startingState(
  payment: DeliveryPayment,
  namesReceipt = false,
): Pick<InboxDelivery, 'status' | 'paymentId' | 'lastError'> {
  if (!payment) {
    return namesReceipt
      ? { status: 'received', paymentId: null }
      : { status: 'ignored', paymentId: null, lastError: NO_PAYMENT }
  }
  return { status: payment.status === 'paid' ? 'processed' : 'received', paymentId: payment.id }
}
/** Why a delivery is `ignored`: it names no transaction nor adoptable payment Paylinks has. */
export const NO_PAYMENT = 'no payment with this cib_transaction_id'

/** A delivery as the receiver hands it to the inbox, before its payment is known. */
export type IncomingDelivery = Omit<
  InboxDelivery,
  'dedupeKey' | 'status' | 'paymentId' | 'lastError'
> & {
  /** SHA-256 hex of the delivery's signed pair (`signedPairText`). */
  signedKey: string
  /** Whether its signed `message` names a receipt (`receiptIdInMessage`): see `startingState`. */
  namesReceipt?: boolean
}

/**
 * The inbox key of a delivery. For a transaction Paylinks has, the signed pair and that
 * transaction: one genuine event per payment (the signed `message` alone is the same for every
 * payment of one amount and outcome), and a signed pair pointed at another payment is another
 * event, checked like any. For a transaction Paylinks does not have, the signed pair alone: the
 * unsigned id is the sender's to choose, so keying on it would let one signed delivery, replayed
 * with ever new ids, add a row each time; keyed so, it is stored once, as a trace of a delivery
 * nobody could place (which is what a crash between the gateway's answer and our write looks like).
 */
export function inboxKey(delivery: IncomingDelivery, payment: DeliveryPayment): string {
  return payment ? `${delivery.signedKey}:${delivery.cibTransactionId}` : delivery.signedKey
}

/** What the webhook receiver needs back from recording a delivery. */
export type RecordedDelivery = {
  isNew: boolean
  event: Pick<WebhookEvent, 'id' | 'status'>
  payment: DeliveryPayment
}

/**
 * Finds a delivery's payment and writes its inbox row in the state it starts in (see
 * `startingState`). Runtimes may do it differently (Node groups the writes of deliveries that
 * arrive together, src/runtime/node/inbox.ts); the default reads, then writes.
 */
export type RecordDelivery = (delivery: IncomingDelivery, now: number) => Promise<RecordedDelivery>

/** The default `RecordDelivery`: the payment lookup, then `recordInboxEvent`. */
export function recordDelivery(db: Db): RecordDelivery {
  return async (delivery, now) => {
    const payment = delivery.cibTransactionId
      ? await getPaymentStateByCibTransactionId(db, delivery.cibTransactionId)
      : null
    const row = {
      dedupeKey: inboxKey(delivery, payment),
      cibTransactionId: delivery.cibTransactionId,
      paymentStatus: delivery.paymentStatus,
      payload: delivery.payload,
      ...startingState(payment, delivery.namesReceipt),
    }
    const recorded = await recordInboxEvent(db, row, now)
    return { ...recorded, payment }
  }
}

/**
 * Records a delivery. `isNew` is false for a redelivery of a recorded event; its `event` then
 * shows how far the first one got (`received` or `failed` ones may be processed again: the
 * payment transitions are idempotent).
 */
export async function recordInboxEvent(
  db: Db,
  delivery: InboxDelivery,
  now: number,
): Promise<{ isNew: boolean; event: WebhookEvent }> {
  const insert = prepared(db, 'recordInboxEvent', (d) =>
    d
      .insert(webhookEvents)
      .values({
        id: sql.placeholder('id'),
        dedupeKey: sql.placeholder('dedupeKey'),
        cibTransactionId: sql.placeholder('cibTransactionId'),
        paymentStatus: sql.placeholder('paymentStatus'),
        payload: sql.placeholder('payload'),
        receivedAt: sql.placeholder('receivedAt'),
        status: sql.placeholder('status'),
        paymentId: sql.placeholder('paymentId'),
        lastError: sql.placeholder('lastError'),
        processedAt: sql.placeholder('processedAt'),
        attempts: sql.placeholder('attempts'),
      })
      .onConflictDoNothing({ target: webhookEvents.dedupeKey })
      .returning()
      .prepare(),
  )
  const [inserted] = (await insert.all(inboxRow(delivery, now))) as WebhookEvent[]
  if (inserted) return { isNew: true, event: inserted }
  const byKey = prepared(db, 'inboxEventByKey', (d) =>
    d
      .select()
      .from(webhookEvents)
      .where(eq(webhookEvents.dedupeKey, sql.placeholder('dedupeKey')))
      .prepare(),
  )
  const [existing] = (await byKey.all({ dedupeKey: delivery.dedupeKey })) as WebhookEvent[]
  if (!existing) throw new Error('Webhook event vanished between insert and read')
  return { isNew: false, event: existing }
}

/** How processing an event ended, for its inbox row. */
export type InboxResult = {
  status: Exclude<WebhookEventStatus, 'received'>
  paymentId?: string | null
  error?: string | null
}

/**
 * An event's result once its payment's check was asked for: `processed`, or `failed` when the
 * check endpoint did not answer (so a redelivery or the reconciler processes it again).
 */
export function checkedResult(checked: boolean, paymentId: string): InboxResult {
  return checked
    ? { status: 'processed', paymentId }
    : { status: 'failed', paymentId, error: 'the check endpoint did not answer' }
}

/**
 * Notes the result of processing an event and counts the attempt — unless `claimInboxEvent`
 * counted it already (`counted`).
 */
export async function markInboxEvent(
  db: Db,
  id: string,
  result: InboxResult,
  now: number,
  counted = false,
): Promise<WebhookEvent | null> {
  const update = prepared(db, counted ? 'markInboxEvent:counted' : 'markInboxEvent', (d) =>
    d
      .update(webhookEvents)
      .set({
        status: sql`${sql.placeholder('status')}`,
        // An absent payment id keeps the one already recorded.
        paymentId: sql`coalesce(${sql.placeholder('paymentId')}, ${webhookEvents.paymentId})`,
        lastError: sql`${sql.placeholder('lastError')}`,
        processedAt: sql`${sql.placeholder('processedAt')}`,
        attempts: counted ? webhookEvents.attempts : sql`${webhookEvents.attempts} + 1`,
      })
      .where(eq(webhookEvents.id, sql.placeholder('id')))
      .returning()
      .prepare(),
  )
  const [row] = (await update.all({
    id,
    status: result.status,
    paymentId: result.paymentId ?? null,
    lastError: result.error ?? null,
    processedAt: now,
  })) as WebhookEvent[]
  return row ?? null
}

// The condition of the partial index `webhook_events_unsettled_idx` (migration 0022), written
// out the same way, constants and all: SQLite reads a partial index only for a query whose
// WHERE contains its condition, and a bound parameter would not match it.
const UNSETTLED: SQL = sql`${webhookEvents.status} IN ('received', 'failed') AND ${webhookEvents.attempts} < ${sql.raw(String(INBOX_MAX_ATTEMPTS))}`

/** A `failed` row's wait before its next attempt, by its attempts so far (SQL, constants only). */
const RETRY_DELAY: SQL = sql`CASE ${webhookEvents.attempts} ${sql.raw(
  INBOX_RETRY_DELAYS_MS.map((ms, i) => `WHEN ${i + 1} THEN ${ms}`).join(' '),
)} ELSE ${sql.raw(String(INBOX_RETRY_DELAYS_MS.at(-1) ?? 0))} END`

/**
 * Inbox rows the reconciler should process now, oldest first: `received` ones recorded before
 * `receivedBy` (the grace period, or the process's start), `failed` ones whose backoff is over,
 * while under the attempts limit. Read through the partial index of rows still to process.
 */
export function listInboxDue(
  db: Db,
  now: number,
  options: { limit: number; receivedBy?: number },
): Promise<WebhookEvent[]> {
  const receivedBy = Math.max(now - INBOX_REPLAY_GRACE_MS, options.receivedBy ?? 0)
  return db
    .select()
    .from(webhookEvents)
    .where(
      sql`${UNSETTLED} AND CASE ${webhookEvents.status}
        WHEN 'received' THEN ${webhookEvents.receivedAt} <= ${receivedBy}
        ELSE coalesce(${webhookEvents.processedAt}, ${webhookEvents.receivedAt}) + ${RETRY_DELAY} <= ${now}
        END`,
    )
    .orderBy(asc(webhookEvents.receivedAt))
    .limit(options.limit)
}

/** Why a row is `failed` while it is being processed: what it says should that be cut short. */
export const INTERRUPTED = 'processing was interrupted'

/**
 * Takes an inbox row for processing, in one conditional write: counts the attempt and leaves the
 * row `failed` (retried after its backoff) until the result is marked, so a process that dies
 * meanwhile leaves it to a later run. Only the row as it was read is taken — not one another
 * process or the request's own background has processed or taken since. Returns whether taken.
 */
export async function claimInboxEvent(
  db: Db,
  event: Pick<WebhookEvent, 'id' | 'attempts'>,
  now: number,
): Promise<boolean> {
  const rows = await db
    .update(webhookEvents)
    .set({
      status: 'failed',
      attempts: event.attempts + 1,
      processedAt: now,
      lastError: INTERRUPTED,
    })
    .where(
      sql`${webhookEvents.id} = ${event.id} AND ${webhookEvents.status} IN ('received', 'failed')
        AND ${webhookEvents.attempts} = ${event.attempts}`,
    )
    .returning({ id: webhookEvents.id })
  return rows.length > 0
}
