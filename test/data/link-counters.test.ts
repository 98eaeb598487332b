/**
 * A link's counters (paid count, paid total, in-flight places) against a fresh aggregate of its
 * payments: after any mix of the moves Paylinks makes, and after the migration that adds them to
 * a database that already holds payments.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type Database from 'better-sqlite3'
import { migrate } from 'drizzle-orm/better-sqlite3/migrator'
import fc from 'fast-check'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { Payment } from '../../db/schema.js'
import { getLinkById, updateLink } from '../../src/data/links.js'
import {
  adoptTransaction,
  applyOutcome,
  failStaleInitiated,
  markError,
  markPending,
  reservePayment,
  scheduleNextCheck,
} from '../../src/data/payments.js'
import { IN_FLIGHT_STATUSES, OUTCOMES } from '../../src/domain/payment-state.js'
import { MIGRATIONS_FOLDER, openSqlite } from '../../src/runtime/node/database.js'
import { storeLink } from '../support/links.js'
import { openTestDb, paymentRequest, T0, type TestDb } from './helpers.js'

type Counters = { paidCount: number; paidTotal: number; inFlightCount: number }

const inFlight = IN_FLIGHT_STATUSES.map((s) => `'${s}'`).join(', ')

/** Each link's counters as stored, and as its payments add up now. */
function countersAndAggregates(sqlite: Database.Database, ids: string[]) {
  const stored = sqlite.prepare(
    `SELECT paid_count AS paidCount, paid_total AS paidTotal, in_flight_count AS inFlightCount
     FROM links WHERE id = ?`,
  )
  const fresh = sqlite.prepare(
    `SELECT count(*) FILTER (WHERE status = 'paid') AS paidCount,
       coalesce(sum(amount) FILTER (WHERE status = 'paid'), 0) AS paidTotal,
       count(*) FILTER (WHERE status IN (${inFlight})) AS inFlightCount
     FROM payments WHERE link_id = ?`,
  )
  return ids.map((id) => ({
    stored: stored.get(id) as Counters,
    fresh: fresh.get(id) as Counters,
  }))
}

let t: TestDb
beforeEach(() => {
  t = openTestDb()
})
afterEach(() => t.cleanup())

const move = fc.oneof(
  fc.record({
    kind: fc.constant('reserve' as const),
    link: fc.nat(2),
    amount: fc.integer({ min: 1, max: 10_000_000 }),
  }),
  fc.record({ kind: fc.constant('pending' as const), payment: fc.nat() }),
  fc.record({
    kind: fc.constant('outcome' as const),
    payment: fc.nat(),
    outcome: fc.constantFrom(...OUTCOMES),
  }),
  fc.record({ kind: fc.constant('error' as const), payment: fc.nat() }),
  fc.record({ kind: fc.constant('adopt' as const), payment: fc.nat() }),
  fc.record({ kind: fc.constant('reschedule' as const), payment: fc.nat() }),
  fc.record({ kind: fc.constant('stale' as const) }),
  fc.record({
    kind: fc.constant('edit' as const),
    link: fc.nat(2),
    max: fc.integer({ min: 1, max: 4 }),
  }),
  fc.record({ kind: fc.constant('delete' as const), payment: fc.nat() }),
)

describe('link counters', () => {
  it('equal a fresh aggregate of the payments after any mix of payment moves', async () => {
    let run = 0
    await fc.assert(
      fc.asyncProperty(fc.array(move, { maxLength: 40 }), async (moves) => {
        run++
        let now = T0 + run * 1_000_000
        const links = [
          await storeLink(t.db, {}, now),
          await storeLink(t.db, { maxPayments: 2 }, now),
          await storeLink(t.db, { maxPayments: 1, amount: null, amountMin: 100 }, now),
        ]
        const made: Payment[] = []
        const pick = (i: number) => made[i % made.length]!
        let cib = 0
        for (const m of moves) {
          now += 1000
          if (m.kind === 'reserve') {
            const link = links[m.link]!
            const r = await reservePayment(t.db, paymentRequest(link, { amount: m.amount }), now)
            if (r.ok) made.push(r.payment)
            continue
          }
          if (m.kind === 'stale') {
            await failStaleInitiated(t.db, now - 1500, now)
            continue
          }
          if (m.kind === 'edit') {
            await updateLink(t.db, links[m.link]!.id, { maxPayments: m.max }, now)
            continue
          }
          if (made.length === 0) continue
          const p = pick(m.payment)
          const ids = { cibTransactionId: `cib_${run}_${++cib}`, transactionId: null }
          if (m.kind === 'pending')
            await markPending(
              t.db,
              p.id,
              { ...ids, paymentUrl: 'https://pay', gatewayResponse: {} },
              now,
            )
          else if (m.kind === 'outcome')
            await applyOutcome(t.db, p.id, m.outcome, {}, now, 'webhook')
          else if (m.kind === 'error')
            await markError(t.db, p.id, 'gateway_refused', now, 'checkout')
          else if (m.kind === 'adopt') await adoptTransaction(t.db, p.id, ids, now, 'return')
          else if (m.kind === 'reschedule')
            await scheduleNextCheck(t.db, { id: p.id, checkAttempts: 0 }, now)
          else {
            // Paylinks never deletes a payment; a hand-made repair must not leave counts behind.
            t.sqlite.prepare('DELETE FROM payments WHERE id = ?').run(p.id)
            made.splice(made.indexOf(p), 1)
          }
        }
        const ids = links.map((l) => l.id)
        for (const { stored, fresh } of countersAndAggregates(t.sqlite, ids))
          expect(stored).toEqual(fresh)
        // What the readers return is the stored row.
        for (const [i, id] of ids.entries()) {
          const link = await getLinkById(t.db, id)
          expect(link).toMatchObject(countersAndAggregates(t.sqlite, ids)[i]!.fresh)
        }
      }),
      { numRuns: 60 },
    )
  })
})

describe('the migration that adds the counters', () => {
  it('fills them from the payments already stored, and the triggers keep them from then on', async () => {
    // A database as it stood before the counters (migrations 0000 to 0004).
    const earlier = mkdtempSync(join(tmpdir(), 'paylinks-before-counters-'))
    cpSync(MIGRATIONS_FOLDER, earlier, { recursive: true })
    const journalPath = join(earlier, 'meta', '_journal.json')
    const journal = JSON.parse(readFileSync(journalPath, 'utf8')) as { entries: { tag: string }[] }
    const before = journal.entries.findIndex((e) => e.tag === '0005_link_counters')
    expect(before).toBeGreaterThan(0)
    writeFileSync(
      journalPath,
      JSON.stringify({ ...journal, entries: journal.entries.slice(0, before) }),
    )
    const path = join(earlier, 'old.db')
    const old = openSqlite(path, { migrate: false })
    migrate(old.db, { migrationsFolder: earlier })
    const addLink = old.sqlite.prepare(
      `INSERT INTO links (id, slug, title, amount, language, max_payments, created_at, updated_at)
       VALUES (?, ?, 'Consultation', 150000, 'fr', ?, 0, 0)`,
    )
    addLink.run('lnk_a', 'slugaaaaaaaa', null)
    addLink.run('lnk_b', 'slugbbbbbbbb', 3)
    addLink.run('lnk_none', 'slugnnnnnnnn', null)
    const addPayment = old.sqlite.prepare(
      `INSERT INTO payments (id, receipt_id, link_id, status, amount, customer_name, customer_phone,
         customer_email, language, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, 'a', 'b', 'c', 'fr', 0, 0)`,
    )
    const rows: [string, string, number][] = [
      ['lnk_a', 'paid', 150000],
      ['lnk_a', 'paid', 99],
      ['lnk_a', 'pending', 150000],
      ['lnk_a', 'failed', 150000],
      ['lnk_a', 'expired', 150000],
      ['lnk_b', 'initiated', 150000],
      ['lnk_b', 'paid', 150000],
      ['lnk_b', 'error', 150000],
      ['lnk_b', 'canceled', 150000],
    ]
    for (const [i, [link, status, amount]] of rows.entries())
      addPayment.run(`pay_${i}`, `r_${i}`, link, status, amount)
    old.close()

    const upgraded = openSqlite(path)
    try {
      const ids = ['lnk_a', 'lnk_b', 'lnk_none']
      const counts = countersAndAggregates(upgraded.sqlite, ids)
      expect(counts.map((c) => c.stored)).toEqual([
        { paidCount: 2, paidTotal: 150099, inFlightCount: 1 },
        { paidCount: 1, paidTotal: 150000, inFlightCount: 1 },
        { paidCount: 0, paidTotal: 0, inFlightCount: 0 },
      ])
      for (const { stored, fresh } of counts) expect(stored).toEqual(fresh)
      const link = (await getLinkById(upgraded.db, 'lnk_b'))!
      const r = await reservePayment(upgraded.db, paymentRequest(link), T0)
      expect(r.ok).toBe(true)
      // Paid 1 + in flight 2 = 3 = max_payments: the next customer waits.
      expect(await getLinkById(upgraded.db, 'lnk_b')).toMatchObject({
        paidCount: 1,
        inFlightCount: 2,
      })
      expect(await reservePayment(upgraded.db, paymentRequest(link), T0)).toMatchObject({
        ok: false,
        reason: 'in_progress',
      })
    } finally {
      upgraded.close()
      rmSync(earlier, { recursive: true, force: true })
    }
  })
})
