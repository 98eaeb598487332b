/**
 * The webhook inbox with group commit (docs/decisions/performance.md, "Group commit"): deliveries
 * that arrive in the same turn of the event loop are recorded in one transaction — each one's
 * payment looked up, its row written in the state it starts in (`startingState`) — and each is
 * answered only once that transaction has committed, so a 2xx still means the row is stored. A
 * failed transaction fails every delivery in it (the gateway then retries them).
 */
import {
  type DeliveryPayment,
  inboxKey,
  inboxRow,
  type RecordDelivery,
  type RecordedDelivery,
  startingState,
} from '../../data/gateway-inbox.js'
import type { SqliteHandle } from './database.js'

type Delivery = Parameters<RecordDelivery>[0]
type Pending = {
  delivery: Delivery
  now: number
  resolve: (recorded: RecordedDelivery) => void
  reject: (error: unknown) => void
}
type Row = RecordedDelivery['event']

/** A `RecordDelivery` that groups the lookups and writes of deliveries arriving together. */
export function groupCommitInbox(handle: SqliteHandle): RecordDelivery {
  const payment = handle.sqlite.prepare(
    'SELECT id, status FROM payments WHERE cib_transaction_id = ? LIMIT 1',
  )
  const insert = handle.sqlite.prepare(
    `INSERT INTO webhook_events (id, dedupe_key, cib_transaction_id, payment_status, payload,
       received_at, status, payment_id, last_error, processed_at, attempts)
     VALUES (@id, @dedupeKey, @cibTransactionId, @paymentStatus, @payload,
       @receivedAt, @status, @paymentId, @lastError, @processedAt, @attempts)
     ON CONFLICT (dedupe_key) DO NOTHING
     RETURNING id, status`,
  )
  const existing = handle.sqlite.prepare(
    'SELECT id, status FROM webhook_events WHERE dedupe_key = ?',
  )
  const write = handle.sqlite.transaction((batch: Pending[]) =>
    batch.map(({ delivery, now }): RecordedDelivery => {
      const found = delivery.cibTransactionId
        ? ((payment.get(delivery.cibTransactionId) as DeliveryPayment | undefined) ?? null)
        : null
      const row = inboxRow(
        {
          dedupeKey: inboxKey(delivery, found),
          cibTransactionId: delivery.cibTransactionId,
          paymentStatus: delivery.paymentStatus,
          payload: delivery.payload,
          ...startingState(found, delivery.namesReceipt),
        },
        now,
      )
      const inserted = insert.get(row) as Row | undefined
      if (inserted) return { isNew: true, event: inserted, payment: found }
      const event = existing.get(row.dedupeKey) as Row | undefined
      if (!event) throw new Error('Webhook event vanished between insert and read')
      return { isNew: false, event, payment: found }
    }),
  )
  let queue: Pending[] = []
  const flush = () => {
    const batch = queue
    queue = []
    let results: RecordedDelivery[]
    try {
      // IMMEDIATE: the write lock first (waiting for it if another process holds it), then the
      // reads; a transaction that read first could be refused its write outright.
      results = write.immediate(batch)
    } catch (error) {
      for (const pending of batch) pending.reject(error)
      return
    }
    for (const [i, pending] of batch.entries()) pending.resolve(results[i] as RecordedDelivery)
  }
  return (delivery, now) =>
    new Promise((resolve, reject) => {
      if (queue.length === 0) setImmediate(flush)
      queue.push({ delivery, now, resolve, reject })
    })
}
