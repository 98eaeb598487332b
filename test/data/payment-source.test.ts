/**
 * A payment's source: copied from its link by the INSERT that starts the payment, filled for the
 * payments stored before the column by migration 0020, and what `source=` lists read.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { eq } from 'drizzle-orm'
import { migrate } from 'drizzle-orm/better-sqlite3/migrator'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { type LinkSource, links } from '../../db/schema.js'
import { createLink } from '../../src/data/links.js'
import { getPaymentById, listPayments, reservePayment } from '../../src/data/payments.js'
import { MIGRATIONS_FOLDER, openSqlite } from '../../src/runtime/node/database.js'
import { linkValues } from '../support/links.js'
import { openTestDb, paymentRequest, T0, type TestDb } from './helpers.js'

describe("a new payment's source", () => {
  let t: TestDb
  beforeEach(() => {
    t = openTestDb()
  })
  afterEach(() => t.cleanup())

  it("is its link's, written by the INSERT that starts it", async () => {
    const made: [LinkSource, string][] = []
    for (const source of ['till', 'api', 'dashboard'] as const) {
      const link = await createLink(t.db, linkValues({ maxPayments: 1 }), T0, { source })
      const r = await reservePayment(t.db, paymentRequest(link), T0 + 1)
      if (!r.ok) throw new Error(r.reason)
      // The row RETURNING gave back, and the stored row, say the same.
      expect(r.payment.source).toBe(source)
      expect((await getPaymentById(t.db, r.payment.id))?.source).toBe(source)
      made.push([source, r.payment.id])
    }
    for (const [source, id] of made) {
      const page = await listPayments(t.db, { source })
      expect(page.items.map((p) => p.id)).toEqual([id])
    }
  })

  it("is the dashboard's on a link made before links had a source", async () => {
    const link = await createLink(t.db, linkValues(), T0)
    await t.db.update(links).set({ source: null }).where(eq(links.id, link.id))
    const r = await reservePayment(t.db, paymentRequest(link), T0 + 1)
    if (!r.ok) throw new Error(r.reason)
    expect(r.payment.source).toBe('dashboard')
    expect((await listPayments(t.db, { source: 'dashboard' })).items).toHaveLength(1)
  })

  it('is not written when the link refuses the payment', async () => {
    const link = await createLink(t.db, linkValues({ active: false }), T0, { source: 'till' })
    expect(await reservePayment(t.db, paymentRequest(link), T0 + 1)).toEqual({
      ok: false,
      reason: 'inactive',
    })
    expect(t.sqlite.prepare('SELECT count(*) AS n FROM payments').get()).toEqual({ n: 0 })
  })
})

describe('migration 0020', () => {
  it('fills the source of the payments stored before it from their links', async () => {
    // A database as it stood before the column (migrations 0000 to 0019).
    const earlier = mkdtempSync(join(tmpdir(), 'paylinks-before-payment-source-'))
    cpSync(MIGRATIONS_FOLDER, earlier, { recursive: true })
    const journalPath = join(earlier, 'meta', '_journal.json')
    const journal = JSON.parse(readFileSync(journalPath, 'utf8')) as { entries: { tag: string }[] }
    const before = journal.entries.findIndex((e) => e.tag === '0020_payment_source')
    expect(before).toBeGreaterThan(0)
    writeFileSync(
      journalPath,
      JSON.stringify({ ...journal, entries: journal.entries.slice(0, before) }),
    )
    const path = join(earlier, 'old.db')
    const old = openSqlite(path, { migrate: false })
    migrate(old.db, { migrationsFolder: earlier })
    const columns = old.sqlite.prepare('PRAGMA table_info(payments)').all() as { name: string }[]
    expect(columns.map((c) => c.name)).not.toContain('source')
    const addLink = old.sqlite.prepare(
      `INSERT INTO links (id, slug, title, amount, language, created_at, updated_at, source)
       VALUES (?, ?, 'Vente', 150000, 'fr', 0, 0, ?)`,
    )
    const linkSources: [string, string | null][] = [
      ['lnk_old', null],
      ['lnk_dash', 'dashboard'],
      ['lnk_api', 'api'],
      ['lnk_till', 'till'],
      ['lnk_till2', 'till'],
    ]
    for (const [id, source] of linkSources) addLink.run(id, `slug_${id}`, source)
    const addPayment = old.sqlite.prepare(
      `INSERT INTO payments (id, receipt_id, link_id, status, amount, customer_name, customer_phone,
         customer_email, language, created_at, updated_at)
       VALUES (?, ?, ?, ?, 150000, 'a', 'b', 'c', 'fr', ?, ?)`,
    )
    const rows: [string, string][] = [
      ['lnk_old', 'paid'],
      ['lnk_old', 'failed'],
      ['lnk_dash', 'paid'],
      ['lnk_api', 'pending'],
      ['lnk_api', 'paid'],
      ['lnk_till', 'paid'],
      ['lnk_till2', 'expired'],
      ['lnk_till2', 'paid'],
    ]
    for (const [i, [link, status]] of rows.entries())
      addPayment.run(`pay_${i}`, `r_${i}`, link, status, 1000 + i, 1000 + i)
    const eventsBefore = old.sqlite.prepare('SELECT count(*) AS n FROM payment_events').get()
    old.close()

    const upgraded = openSqlite(path)
    try {
      const stored = upgraded.sqlite
        .prepare('SELECT id, source FROM payments ORDER BY id')
        .all() as { id: string; source: string }[]
      expect(stored).toEqual([
        { id: 'pay_0', source: 'dashboard' },
        { id: 'pay_1', source: 'dashboard' },
        { id: 'pay_2', source: 'dashboard' },
        { id: 'pay_3', source: 'api' },
        { id: 'pay_4', source: 'api' },
        { id: 'pay_5', source: 'till' },
        { id: 'pay_6', source: 'till' },
        { id: 'pay_7', source: 'till' },
      ])
      // The fill moved no status: no trigger wrote an event, no counter changed.
      expect(upgraded.sqlite.prepare('SELECT count(*) AS n FROM payment_events').get()).toEqual(
        eventsBefore,
      )
      const till = await listPayments(upgraded.db, { source: 'till' })
      expect(till.items.map((p) => p.id)).toEqual(['pay_7', 'pay_6', 'pay_5'])
      const dashboardPaid = await listPayments(upgraded.db, { source: 'dashboard', status: 'paid' })
      expect(dashboardPaid.items.map((p) => p.id)).toEqual(['pay_2', 'pay_0'])
      // Payments made after it copy their link's source themselves.
      const [link] = await upgraded.db.select().from(links).where(eq(links.id, 'lnk_api'))
      const r = await reservePayment(upgraded.db, paymentRequest(link!), 5000)
      expect(r.ok && r.payment.source).toBe('api')
    } finally {
      upgraded.close()
      rmSync(earlier, { recursive: true, force: true })
    }
  })
})
