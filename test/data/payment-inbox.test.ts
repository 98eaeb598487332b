/**
 * A payment's page lists its webhook deliveries without an index by payment on the inbox: a range
 * of the time-sorted ids (the weeks after the payment started), read through the primary key.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { listPaymentInboxEvents, PAYMENT_INBOX_WINDOW_MS } from '../../src/data/payment-inbox.js'
import { newWebhookEventId } from '../../src/domain/ids.js'
import { openTestDb, T0, type TestDb } from './helpers.js'

let t: TestDb
beforeEach(() => {
  t = openTestDb()
})
afterEach(() => t.cleanup())

function deliver(id: string, paymentId: string | null, at: number): void {
  t.sqlite
    .prepare(
      `INSERT INTO webhook_events (id, dedupe_key, payment_id, payload, received_at, status)
       VALUES (?, ?, ?, '{}', ?, 'processed')`,
    )
    .run(id, `key-${id}`, paymentId, at)
}

describe("a payment's webhook deliveries", () => {
  it('are those for the payment received in the window after it started, oldest first', async () => {
    const payment = { id: 'pay_a', createdAt: T0 }
    const inWindow = [T0 + 5_000, T0 + 60_000, T0 + PAYMENT_INBOX_WINDOW_MS - 1_000].map((at) => {
      const id = newWebhookEventId(at)
      deliver(id, 'pay_a', at)
      return id
    })
    deliver(newWebhookEventId(T0 + 10_000), 'pay_b', T0 + 10_000)
    deliver(newWebhookEventId(T0 + 20_000), null, T0 + 20_000)
    deliver(newWebhookEventId(T0 - 3_600_000), 'pay_a', T0 - 3_600_000)
    deliver(
      newWebhookEventId(T0 + PAYMENT_INBOX_WINDOW_MS + 60_000),
      'pay_a',
      T0 + PAYMENT_INBOX_WINDOW_MS + 60_000,
    )
    const listed = await listPaymentInboxEvents(t.db, payment)
    expect(listed.map((e) => e.id)).toEqual(inWindow)
  })

  it('are read as a range of the primary key, not a scan of the inbox', () => {
    const plan = t.sqlite
      .prepare(
        `EXPLAIN QUERY PLAN SELECT * FROM webhook_events
         WHERE id >= ? AND id < ? AND payment_id = ? ORDER BY id LIMIT 50`,
      )
      .all('evt_0', 'evt_1', 'pay_a') as { detail: string }[]
    const detail = plan.map((p) => p.detail).join('\n')
    expect(detail).toMatch(
      /SEARCH webhook_events USING INDEX sqlite_autoindex_webhook_events_1 \(id>\? AND id<\?\)/,
    )
  })
})
