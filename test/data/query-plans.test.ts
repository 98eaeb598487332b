/**
 * The list queries' plans (EXPLAIN QUERY PLAN on the SQL drizzle generates, captured as it runs):
 * each filtered list reads an index in the order it shows, without sorting every matching row.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { drizzle } from 'drizzle-orm/better-sqlite3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { seedMerchant } from '../../bench/seed-merchant.js'
import type { Payment, PaymentStatus } from '../../db/schema.js'
import * as schema from '../../db/schema.js'
import type { Db } from '../../src/data/db.js'
import { listLinks } from '../../src/data/links.js'
import { getOverview } from '../../src/data/overview.js'
import { decodeCursor } from '../../src/data/paging.js'
import { countPaymentsBeyondMax, listPayments } from '../../src/data/payments.js'
import { parseSearch } from '../../src/data/search.js'
import { openSqlite, type SqliteHandle } from '../../src/runtime/node/database.js'

const NOW = Date.UTC(2030, 5, 1)
const DAY = 86_400_000
let dir: string
let handle: SqliteHandle
let captured: { sql: string; params: unknown[] }[] = []
let db: Db
let linkId: string

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'paylinks-plans-'))
  const path = join(dir, 'merchant.db')
  seedMerchant(path, 4_000, 40, NOW)
  handle = openSqlite(path)
  const logger = { logQuery: (sql: string, params: unknown[]) => captured.push({ sql, params }) }
  db = drizzle(handle.sqlite, { schema, logger }) as unknown as Db
  linkId = (handle.sqlite.prepare('SELECT id FROM links LIMIT 1').get() as { id: string }).id
})

afterAll(() => {
  handle.close()
  rmSync(dir, { recursive: true, force: true })
})

/** Runs `query` and answers the plan of every statement it sent, one line per step. */
async function plansOf(query: () => Promise<unknown>): Promise<string[]> {
  captured = []
  await query()
  expect(captured.length).toBeGreaterThan(0)
  return captured.map(({ sql, params }) =>
    (
      handle.sqlite.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...(params as never[])) as {
        detail: string
      }[]
    )
      .map((row) => row.detail)
      .join(' ; '),
  )
}

const cursor = { createdAt: NOW - 100 * DAY, id: 'pay_zzzzzzzzzzzzzzzz' }
// The till's sales are all in its last 30 days.
const tillCursor = { createdAt: NOW - 10 * DAY, id: 'pay_zzzzzzzzzzzzzzzz' }

describe('the payments list', () => {
  const filtered: [string, () => Parameters<typeof listPayments>[1]][] = [
    ['a status', () => ({ status: 'failed' })],
    ['a link', () => ({ linkId })],
    ['a link and a status', () => ({ linkId, status: 'paid' })],
    ['a date range', () => ({ createdFrom: NOW - 40 * DAY, createdTo: NOW - 30 * DAY })],
    ['the next page (cursor)', () => ({ cursor })],
    ['a status, next page', () => ({ status: 'paid', cursor })],
    ['several statuses', () => ({ status: ['failed', 'canceled', 'pending'] })],
    ['several statuses, next page', () => ({ status: ['paid', 'expired'], cursor })],
    ['a source', () => ({ source: 'till' })],
    ['a source, next page', () => ({ source: 'till', cursor: tillCursor })],
    ['a source and a status', () => ({ source: 'till', status: 'paid' })],
    ['a source and several statuses', () => ({ source: 'dashboard', status: ['failed', 'paid'] })],
    ['a source and a link', () => ({ source: 'dashboard', linkId })],
    ['a source and a date range', () => ({ source: 'till', createdFrom: NOW - 10 * DAY })],
  ]
  for (const [what, options] of filtered) {
    it(`filtered by ${what} searches an index in list order, no sort`, async () => {
      for (const plan of await plansOf(() => listPayments(db, options()))) {
        expect(plan).toMatch(/^SEARCH payments USING (COVERING )?INDEX payments_\w+ \(/)
        expect(plan).not.toMatch(/TEMP B-TREE/)
      }
    })
  }

  it('unfiltered walks the creation-time index, no sort', async () => {
    const [plan] = await plansOf(() => listPayments(db, {}))
    expect(plan).toBe('SCAN payments USING INDEX payments_created_at_idx')
  })

  it("filtered by a source walks the payments' own source index, not the links", async () => {
    const [plan] = await plansOf(() => listPayments(db, { source: 'till' }))
    expect(plan).toBe('SEARCH payments USING INDEX payments_source_created_at_idx (source=?)')
    const [next] = await plansOf(() => listPayments(db, { source: 'till', cursor: tillCursor }))
    expect(next).toBe(
      'SEARCH payments USING INDEX payments_source_created_at_idx (source=? AND (created_at,id)<(?,?))',
    )
  })

  it('filtered by a source beside a status or a link walks their index, checking the source', async () => {
    const [withStatus] = await plansOf(() =>
      listPayments(db, { source: 'dashboard', status: 'pending' }),
    )
    expect(withStatus).toBe('SEARCH payments USING INDEX payments_status_created_at_idx (status=?)')
    const [withLink] = await plansOf(() => listPayments(db, { source: 'dashboard', linkId }))
    expect(withLink).toBe('SEARCH payments USING INDEX payments_link_created_at_idx (link_id=?)')
  })

  it("filtered by a source lists, page by page, the payments of that source's links", async () => {
    for (const source of ['till', 'dashboard'] as const) {
      const all = handle.sqlite
        .prepare(
          `SELECT payments.id FROM payments JOIN links ON links.id = payments.link_id
           WHERE coalesce(links.source, 'dashboard') = ? AND payments.status IN ('paid', 'failed')
           ORDER BY payments.created_at DESC, payments.id DESC`,
        )
        .all(source) as { id: string }[]
      const seen: string[] = []
      let next: string | null = null
      do {
        const nextCursor = next ? (decodeCursor(next) ?? undefined) : undefined
        const page: { items: Payment[]; nextCursor: string | null } = await listPayments(db, {
          source,
          status: ['paid', 'failed'],
          limit: 200,
          ...(nextCursor ? { cursor: nextCursor } : {}),
        })
        seen.push(...page.items.map((p) => p.id))
        next = page.nextCursor
      } while (next)
      expect(all.length).toBeGreaterThan(50)
      expect(seen).toEqual(all.map((r) => r.id))
      const one = await listPayments(db, { source, limit: 200 })
      expect(one.items.every((p) => p.source === source)).toBe(true)
    }
  })

  it('with several statuses lists the same payments, in order, as one status at a time', async () => {
    const statuses: PaymentStatus[] = ['paid', 'failed', 'expired']
    const all = handle.sqlite
      .prepare(
        `SELECT id FROM payments WHERE status IN ('paid', 'failed', 'expired')
         ORDER BY created_at DESC, id DESC`,
      )
      .all() as { id: string }[]
    const seen: string[] = []
    let next: string | null = null
    do {
      const nextCursor = next ? (decodeCursor(next) ?? undefined) : undefined
      const page: { items: Payment[]; nextCursor: string | null } = await listPayments(db, {
        status: [...statuses, 'paid'],
        limit: 200,
        ...(nextCursor ? { cursor: nextCursor } : {}),
      })
      seen.push(...page.items.map((p) => p.id))
      next = page.nextCursor
    } while (next)
    expect(all.length).toBeGreaterThan(1_000)
    expect(seen).toEqual(all.map((r) => r.id))
    const offsetPage = await listPayments(db, { status: statuses, offset: 300, limit: 50 })
    expect(offsetPage.items.map((p) => p.id)).toEqual(seen.slice(300, 350))
  })
})

describe('the links list', () => {
  it('walks the creation-time index, no sort, on every page', async () => {
    const plans = [
      ...(await plansOf(() => listLinks(db, {}))),
      ...(await plansOf(() => listLinks(db, { cursor }))),
    ]
    expect(plans[0]).toBe('SCAN links USING INDEX links_created_at_idx')
    expect(plans[1]).toMatch(
      /^SEARCH links USING INDEX links_created_at_idx \(\(created_at,id\)<\(\?,\?\)\)/,
    )
  })

  it('filtered by source (all but the till, the till, the API) walks the same index, no sort', async () => {
    for (const source of ['own', 'not_checkout', 'till', 'api'] as const) {
      const [first] = await plansOf(() => listLinks(db, { source }))
      expect(first, source).toBe('SCAN links USING INDEX links_created_at_idx')
      const [next] = await plansOf(() => listLinks(db, { source, cursor: tillCursor }))
      expect(next, source).toMatch(
        /^SEARCH links USING INDEX links_created_at_idx \(\(created_at,id\)<\(\?,\?\)\)$/,
      )
    }
  })

  it('filtered by source lists, page by page, the links made there (no source read as the dashboard)', async () => {
    const truth = (where: string) =>
      (
        handle.sqlite
          .prepare(`SELECT id FROM links WHERE ${where} ORDER BY created_at DESC, id DESC`)
          .all() as { id: string }[]
      ).map((r) => r.id)
    const cases = [
      ['own', "source IS NULL OR source NOT IN ('till', 'checkout')"],
      ['not_checkout', "source IS NULL OR source <> 'checkout'"],
      ['till', "source = 'till'"],
      ['dashboard', "source IS NULL OR source = 'dashboard'"],
    ] as const
    for (const [source, where] of cases) {
      const seen: string[] = []
      let next: string | null = null
      do {
        const nextCursor = next ? (decodeCursor(next) ?? undefined) : undefined
        const page: { items: { id: string }[]; nextCursor: string | null } = await listLinks(db, {
          source,
          limit: 30,
          ...(nextCursor ? { cursor: nextCursor } : {}),
        })
        seen.push(...page.items.map((l) => l.id))
        next = page.nextCursor
      } while (next)
      expect(seen.length, source).toBeGreaterThan(30)
      expect(seen, source).toEqual(truth(where))
    }
  })
})

describe('search', () => {
  const search = (text: string) => {
    const parsed = parseSearch(text)
    if (!parsed.ok) throw new Error(parsed.problem)
    return parsed.term
  }
  // The seeded file's texts: a rare one (a phone's digits) and a common one (a mail domain).
  const rarePhone = () =>
    (
      handle.sqlite.prepare('SELECT customer_phone AS p FROM payments LIMIT 1').get() as {
        p: string
      }
    ).p

  it('with few matches reads them from the trigram index, then the payments by rowid', async () => {
    const plans = await plansOf(() => listPayments(db, { search: search(rarePhone().slice(1, 8)) }))
    expect(plans[0]).toMatch(/SCAN payments_search VIRTUAL TABLE INDEX 0:M/)
    expect(plans[1]).toMatch(/^SEARCH payments USING INTEGER PRIMARY KEY \(rowid=\?\)/)
    expect(plans[1]).toMatch(/SCAN payments_search VIRTUAL TABLE INDEX 0:M/)
  })

  it('with many matches walks the list index in order and keeps the matches, no sort', async () => {
    // Two of the five e-mail domains end in .dz: 40 % of the payments.
    const plans = await plansOf(() => listPayments(db, { search: search('.dz') }))
    expect(plans[1]).toMatch(/^SCAN payments USING INDEX payments_created_at_idx/)
    expect(plans[1]).toMatch(/SCAN payments_search VIRTUAL TABLE INDEX 0:M/)
    expect(plans[1]).not.toMatch(/TEMP B-TREE/)
  })

  it('with a status walks that status in list order, keeping the matches', async () => {
    const plans = await plansOf(() => listPayments(db, { status: 'failed', search: search('.dz') }))
    expect(plans[1]).toMatch(/^SEARCH payments USING INDEX payments_status_created_at_idx/)
    expect(plans[1]).not.toMatch(/TEMP B-TREE/)
  })

  it('finds links by title through their own trigram index', async () => {
    const plans = await plansOf(() => listLinks(db, { search: search('Abonnement') }))
    expect(plans.at(-1)).toMatch(/SCAN links_search VIRTUAL TABLE INDEX 0:M/)
  })
})

describe("a link's page", () => {
  it('counts the payments past its maximum from the partial index, not every payment of the link', async () => {
    const busiest = (
      handle.sqlite.prepare('SELECT id FROM links ORDER BY paid_count DESC LIMIT 1').get() as {
        id: string
      }
    ).id
    const [plan] = await plansOf(() => countPaymentsBeyondMax(db, busiest))
    expect(plan).toMatch(
      /^SEARCH payments USING (COVERING )?INDEX payments_beyond_max_idx \(link_id=\?\)/,
    )
  })

  it('counts them right', async () => {
    const busiest = (
      handle.sqlite.prepare('SELECT id FROM links ORDER BY paid_count DESC LIMIT 1').get() as {
        id: string
      }
    ).id
    expect(await countPaymentsBeyondMax(db, busiest)).toBe(0)
    const flagged = handle.sqlite
      .prepare(
        `UPDATE payments SET beyond_max_payments = 1 WHERE id IN
           (SELECT id FROM payments WHERE link_id = ? ORDER BY created_at LIMIT 3)`,
      )
      .run(busiest)
    expect(flagged.changes).toBe(3)
    try {
      expect(await countPaymentsBeyondMax(db, busiest)).toBe(3)
    } finally {
      handle.sqlite
        .prepare('UPDATE payments SET beyond_max_payments = 0 WHERE link_id = ?')
        .run(busiest)
    }
  })
})

describe('the overview', () => {
  it('reads every payments query of its 30 days from an index alone', async () => {
    const plans = await plansOf(() => getOverview(db, NOW))
    const onPayments = plans.filter((plan) => / payments /.test(` ${plan} `))
    // Paid by day, outcomes by day, reasons, top links, in flight (the links' titles come apart).
    expect(onPayments).toHaveLength(5)
    for (const plan of onPayments) expect(plan).toMatch(/^SEARCH payments USING COVERING INDEX /)
  })
})
