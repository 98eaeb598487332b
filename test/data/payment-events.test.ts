/**
 * Each change of a payment's status leaves one row in payment_events, written by the statement
 * that makes it, with what caused it; a write that changes nothing leaves none; payments stored
 * before the table existed get their creation and present state.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { migrate } from 'drizzle-orm/better-sqlite3/migrator'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { listPaymentEvents } from '../../src/data/payment-events.js'
import {
  applyOutcome,
  failStaleInitiated,
  markPending,
  reservePayment,
  scheduleNextCheck,
} from '../../src/data/payments.js'
import { MIGRATIONS_FOLDER, openSqlite } from '../../src/runtime/node/database.js'
import { storeLink } from '../support/links.js'
import { openTestDb, paymentRequest, T0, type TestDb } from './helpers.js'

let t: TestDb
beforeEach(() => {
  t = openTestDb()
})
afterEach(() => t.cleanup())

const ids = {
  transactionId: 'tx_1',
  cibTransactionId: 'CIB0000000001',
  paymentUrl: 'https://pay.example/1',
  gatewayResponse: {},
}

const moves = (events: Awaited<ReturnType<typeof listPaymentEvents>>) =>
  events.map((e) => [e.fromStatus, e.toStatus, e.cause, e.at])

describe('payment events', () => {
  it('records creation, the gateway answer and the outcome once each, with their causes', async () => {
    const link = await storeLink(t.db, { amount: 150000 })
    const r = await reservePayment(t.db, paymentRequest(link), T0)
    if (!r.ok) throw new Error('not reserved')
    const id = r.payment.id
    await markPending(t.db, id, ids, T0 + 1)
    expect(await scheduleNextCheck(t.db, { id, checkAttempts: 0 }, T0 + 2)).toBe(true)
    expect((await applyOutcome(t.db, id, 'paid', {}, T0 + 3, 'webhook')).changed).toBe(true)
    // The same outcome again (a redelivery, the return page): no change, no event.
    expect((await applyOutcome(t.db, id, 'paid', {}, T0 + 4, 'return')).changed).toBe(false)
    expect((await applyOutcome(t.db, id, 'failed', {}, T0 + 5, 'reconciler')).changed).toBe(false)
    expect(moves(await listPaymentEvents(t.db, id))).toEqual([
      [null, 'initiated', 'checkout', T0],
      ['initiated', 'pending', 'checkout', T0 + 1],
      ['pending', 'paid', 'webhook', T0 + 3],
    ])
  })

  it('names the reconciler for a payment it gives up on, and a late paid after it', async () => {
    const link = await storeLink(t.db, { amount: 150000 })
    const r = await reservePayment(t.db, paymentRequest(link), T0)
    if (!r.ok) throw new Error('not reserved')
    const stale = await failStaleInitiated(t.db, T0 + 1, T0 + 10)
    expect(stale.map((p) => p.id)).toEqual([r.payment.id])
    expect(moves(await listPaymentEvents(t.db, r.payment.id))).toEqual([
      [null, 'initiated', 'checkout', T0],
      ['initiated', 'error', 'reconciler', T0 + 10],
    ])
  })

  it('gives payments stored before the table their creation and present state', () => {
    const earlier = mkdtempSync(join(tmpdir(), 'paylinks-before-events-'))
    try {
      cpSync(MIGRATIONS_FOLDER, earlier, { recursive: true })
      const journalPath = join(earlier, 'meta', '_journal.json')
      const journal = JSON.parse(readFileSync(journalPath, 'utf8')) as {
        entries: { tag: string }[]
      }
      const at = journal.entries.findIndex((e) => e.tag === '0008_payment_events')
      expect(at).toBeGreaterThan(0)
      writeFileSync(
        journalPath,
        JSON.stringify({ ...journal, entries: journal.entries.slice(0, at) }),
      )
      const path = join(earlier, 'old.db')
      const old = openSqlite(path, { migrate: false })
      migrate(old.db, { migrationsFolder: earlier })
      old.sqlite
        .prepare(
          `INSERT INTO links (id, slug, title, amount, language, created_at, updated_at)
           VALUES ('lnk_a', 'slugaaaaaaaa', 'Consultation', 150000, 'fr', 0, 0)`,
        )
        .run()
      const add = old.sqlite.prepare(
        `INSERT INTO payments (id, receipt_id, link_id, status, amount, customer_name, customer_phone,
           customer_email, language, created_at, updated_at, settled_at)
         VALUES (?, ?, 'lnk_a', ?, 150000, 'a', 'b', 'c', 'fr', ?, ?, ?)`,
      )
      add.run('pay_1', 'r_1', 'paid', 100, 200, 150)
      add.run('pay_2', 'r_2', 'initiated', 300, 300, null)
      old.close()
      const upgraded = openSqlite(path)
      const rows = upgraded.sqlite
        .prepare(
          'SELECT payment_id, from_status, to_status, cause, at FROM payment_events ORDER BY id',
        )
        .all()
      upgraded.close()
      expect(rows).toEqual([
        {
          payment_id: 'pay_1',
          from_status: null,
          to_status: 'initiated',
          cause: 'checkout',
          at: 100,
        },
        {
          payment_id: 'pay_2',
          from_status: null,
          to_status: 'initiated',
          cause: 'checkout',
          at: 300,
        },
        { payment_id: 'pay_1', from_status: 'initiated', to_status: 'paid', cause: null, at: 150 },
      ])
    } finally {
      rmSync(earlier, { recursive: true, force: true })
    }
  })
})
