import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { migrate } from 'drizzle-orm/better-sqlite3/migrator'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import {
  deleteLinkIfUnused,
  getLinkById,
  getLinkBySlug,
  linkHasPayments,
  listLinks,
  updateLink,
} from '../../src/data/links.js'
import { decodeCursor } from '../../src/data/paging.js'
import { applyOutcome, markPending, reservePayment } from '../../src/data/payments.js'
import {
  MIGRATIONS_FOLDER,
  openSqlite,
  WAL_SIZE_LIMIT_BYTES,
} from '../../src/runtime/node/database.js'
import { storeLink } from '../support/links.js'
import { runContenders } from './contenders.js'
import { openTestDb, paymentRequest, T0, type TestDb } from './helpers.js'

const MIGRATION_FILES = readdirSync(MIGRATIONS_FOLDER).filter((f) => f.endsWith('.sql')).length

let t: TestDb
beforeEach(() => {
  t = openTestDb()
})
afterEach(() => t.cleanup())

async function pay(linkId: string, amount: number, now = T0) {
  const link = (await getLinkById(t.db, linkId))!
  const r = await reservePayment(t.db, paymentRequest(link, { amount }), now)
  if (!r.ok) throw new Error(`reservation refused: ${r.reason}`)
  return r.payment
}

describe('openSqlite', () => {
  it('opens the file in WAL mode with foreign keys on and the schema migrated', () => {
    expect(t.sqlite.pragma('journal_mode', { simple: true })).toBe('wal')
    expect(t.sqlite.pragma('foreign_keys', { simple: true })).toBe(1)
    const tables = t.sqlite
      .prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
      .pluck()
      .all()
    expect(tables).toEqual(
      expect.arrayContaining(['links', 'payments', 'rate_limits', 'settings', 'webhook_events']),
    )
  })

  it('indexes the webhook inbox only by what it is looked up by, and caps the log file', () => {
    // Every index is one more page written by each delivery; the inbox is read by id and key,
    // and by the reconciler through a partial index that only rows still to process enter.
    const indexes = t.sqlite
      .prepare('SELECT sql FROM sqlite_master WHERE type = ? AND tbl_name = ? AND sql IS NOT NULL')
      .pluck()
      .all('index', 'webhook_events')
    expect(indexes).toEqual([
      'CREATE UNIQUE INDEX `webhook_events_dedupe_key_unique` ON `webhook_events` (`dedupe_key`)',
      'CREATE INDEX `webhook_events_unsettled_idx` ON `webhook_events` (`received_at`) WHERE "webhook_events"."status" IN (\'received\', \'failed\') AND "webhook_events"."attempts" < 10',
    ])
    expect(t.sqlite.pragma('journal_size_limit', { simple: true })).toBe(WAL_SIZE_LIMIT_BYTES)
  })

  it('upgrades a database made by an earlier version, keeping its rows', () => {
    // The migrations as they stood before the inbox index was dropped (0000 and 0001 only).
    const earlier = mkdtempSync(join(tmpdir(), 'paylinks-earlier-'))
    cpSync(MIGRATIONS_FOLDER, earlier, { recursive: true })
    const journalPath = join(earlier, 'meta', '_journal.json')
    const journal = JSON.parse(readFileSync(journalPath, 'utf8')) as { entries: unknown[] }
    writeFileSync(journalPath, JSON.stringify({ ...journal, entries: journal.entries.slice(0, 2) }))
    const path = join(earlier, 'old.db')
    const old = openSqlite(path, { migrate: false })
    migrate(old.db, { migrationsFolder: earlier })
    old.sqlite
      .prepare(
        'INSERT INTO webhook_events (id, dedupe_key, payload, received_at) VALUES (?, ?, ?, ?)',
      )
      .run('evt_old', 'key_old', '{}', T0)
    const indexNames = (h: typeof old) =>
      h.sqlite
        .prepare(
          "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'webhook_events'",
        )
        .pluck()
        .all()
    expect(indexNames(old)).toContain('webhook_events_cib_transaction_idx')
    old.close()
    const upgraded = openSqlite(path)
    try {
      expect(indexNames(upgraded)).not.toContain('webhook_events_cib_transaction_idx')
      expect(upgraded.sqlite.prepare('SELECT id FROM webhook_events').pluck().all()).toEqual([
        'evt_old',
      ])
    } finally {
      upgraded.close()
      rmSync(earlier, { recursive: true, force: true })
    }
  })

  it('reopens an existing file without applying the migrations again', async () => {
    const link = await storeLink(t.db)
    const again = openSqlite(t.path)
    try {
      expect((await getLinkById(again.db, link.id))?.title).toBe('Consultation')
      const applied = again.sqlite
        .prepare('SELECT count(*) FROM __drizzle_migrations')
        .pluck()
        .get()
      expect(applied).toBe(MIGRATION_FILES)
    } finally {
      again.close()
    }
  })

  it('refuses a payment that points at no link (foreign keys are enforced)', () => {
    const insert = () =>
      t.sqlite
        .prepare(
          `INSERT INTO payments (id, receipt_id, link_id, status, amount, customer_name,
           customer_phone, customer_email, language, created_at, updated_at)
           VALUES ('pay_x', 'r', 'lnk_missing', 'initiated', 100, 'a', 'b', 'c', 'fr', 0, 0)`,
        )
        .run()
    expect(insert).toThrow(/FOREIGN KEY/)
  })
})

describe('links', () => {
  it('creates a link with an lnk_ id and an unguessable 12-character base62 slug', async () => {
    const link = await storeLink(t.db, { maxPayments: 3, expiresAt: T0 + 86_400_000 })
    expect(link.id).toMatch(/^lnk_[0-9A-Za-z]{16}$/)
    expect(link.slug).toMatch(/^[0-9A-Za-z]{12}$/)
    expect(link).toMatchObject({ amount: 150000, maxPayments: 3, active: true, createdAt: T0 })
    const other = await storeLink(t.db)
    expect(other.slug).not.toBe(link.slug)
  })

  it('finds a link by id and by slug with zero paid totals before any payment', async () => {
    const link = await storeLink(t.db)
    expect(await getLinkById(t.db, link.id)).toEqual({ ...link, paidCount: 0, paidTotal: 0 })
    expect(await getLinkBySlug(t.db, link.slug)).toEqual({
      ...link,
      paidCount: 0,
      paidTotal: 0,
      brandingVersion: 0,
    })
    expect(await getLinkBySlug(t.db, 'nope')).toBeNull()
  })

  it('keeps invoice items as JSON and gives them back as written', async () => {
    const items = [{ description: 'Livre', quantity: 2, unitPrice: 129950 }]
    const link = await storeLink(t.db, { amount: 259900, invoiceItems: items })
    expect((await getLinkById(t.db, link.id))?.invoiceItems).toEqual(items)
  })

  it('updates only the given columns and the update time', async () => {
    const link = await storeLink(t.db, { description: 'old' })
    const updated = await updateLink(
      t.db,
      link.id,
      { active: false, inactiveMessage: 'Back soon' },
      T0 + 5,
    )
    expect(updated).toMatchObject({
      active: false,
      inactiveMessage: 'Back soon',
      description: 'old',
      updatedAt: T0 + 5,
      createdAt: T0,
    })
    expect(await updateLink(t.db, 'lnk_missing', { active: false }, T0)).toBeNull()
  })

  it('merges two metadata changes made at once: each keeps the other key', async () => {
    const link = await storeLink(t.db, { metadata: { a: '1' } })
    // Both calls start before either writes: a merge read first and written after would lose one.
    await Promise.all([
      updateLink(t.db, link.id, { metadata: { first: '1' } }, T0 + 1),
      updateLink(t.db, link.id, { metadata: { second: '2', a: '' } }, T0 + 1),
    ])
    expect((await getLinkById(t.db, link.id))?.metadata).toEqual({ first: '1', second: '2' })
  })

  it('reads metadata written by other means as none rather than failing', async () => {
    const link = await storeLink(t.db)
    for (const text of ['not json', '[1,2]', '"text"', '{"a":1,"b":"2"}']) {
      t.sqlite.prepare('UPDATE links SET metadata = ? WHERE id = ?').run(text, link.id)
      const read = await getLinkById(t.db, link.id)
      expect(read?.metadata).toEqual(text.startsWith('{') ? { b: '2' } : {})
      // A change merges into what reads as stored: the unreadable text is replaced.
      const changed = await updateLink(t.db, link.id, { metadata: { c: '3' } }, T0 + 1)
      expect(changed?.metadata).toEqual(text.startsWith('{') ? { b: '2', c: '3' } : { c: '3' })
    }
  })

  it('counts only paid payments in paid_count and paid_total', async () => {
    const link = await storeLink(t.db, { amount: null, amountMin: 5000, amountMax: null })
    const a = await pay(link.id, 129950)
    const b = await pay(link.id, 5000)
    await pay(link.id, 7000) // stays initiated
    await applyOutcome(t.db, a.id, 'paid', {}, T0 + 1, 'webhook')
    await applyOutcome(t.db, b.id, 'failed', {}, T0 + 1, 'webhook')
    expect(await getLinkById(t.db, link.id)).toMatchObject({ paidCount: 1, paidTotal: 129950 })
    const page = await listLinks(t.db)
    expect(page.items[0]).toMatchObject({ id: link.id, paidCount: 1, paidTotal: 129950 })
  })

  it('lists links newest first, by offset or by cursor, without gaps or repeats', async () => {
    const ids: string[] = []
    for (let i = 0; i < 5; i++) ids.push((await storeLink(t.db, {}, T0 + (i % 3))).id)
    const all = (await listLinks(t.db, { limit: 50 })).items.map((l) => l.id)
    expect(all).toHaveLength(5)
    const times = (await listLinks(t.db)).items.map((l) => l.createdAt)
    expect(times).toEqual([...times].sort((x, y) => y - x))

    const first = await listLinks(t.db, { limit: 2 })
    const second = await listLinks(t.db, { limit: 2, cursor: decodeCursor(first.nextCursor!)! })
    const third = await listLinks(t.db, { limit: 2, cursor: decodeCursor(second.nextCursor!)! })
    expect([...first.items, ...second.items, ...third.items].map((l) => l.id)).toEqual(all)
    expect(third.nextCursor).toBeNull()
    expect((await listLinks(t.db, { limit: 2, offset: 2 })).items.map((l) => l.id)).toEqual(
      all.slice(2, 4),
    )
  })

  it('filters links on the active switch', async () => {
    const on = await storeLink(t.db)
    const off = await storeLink(t.db, { active: false })
    expect((await listLinks(t.db, { active: true })).items.map((l) => l.id)).toEqual([on.id])
    expect((await listLinks(t.db, { active: false })).items.map((l) => l.id)).toEqual([off.id])
  })

  it('deletes a link without payments but never one with a payment', async () => {
    const unused = await storeLink(t.db)
    const used = await storeLink(t.db)
    const p = await pay(used.id, 150000)
    await markPending(
      t.db,
      p.id,
      { transactionId: 't', cibTransactionId: '1', paymentUrl: 'https://x', gatewayResponse: {} },
      T0,
    )
    expect(await linkHasPayments(t.db, unused.id)).toBe(false)
    expect(await linkHasPayments(t.db, used.id)).toBe(true)
    expect(await deleteLinkIfUnused(t.db, used.id)).toBe(false)
    expect(await getLinkById(t.db, used.id)).not.toBeNull()
    expect(await deleteLinkIfUnused(t.db, unused.id)).toBe(true)
    expect(await getLinkById(t.db, unused.id)).toBeNull()
  })
})

describe('openSqlite from several processes at once', () => {
  it('migrates a new file once while four connections open it together', async () => {
    const fresh = join(dirname(t.path), 'fresh.db')
    const results = await runContenders(
      fresh,
      Array.from({ length: 4 }, () => ({ kind: 'open' as const })),
    )
    expect(results).toEqual(['opened', 'opened', 'opened', 'opened'])
    const handle = openSqlite(fresh)
    try {
      const applied = handle.sqlite
        .prepare('SELECT count(*) FROM __drizzle_migrations')
        .pluck()
        .get()
      expect(applied).toBe(MIGRATION_FILES)
    } finally {
      handle.close()
    }
  })
})
