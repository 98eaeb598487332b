/**
 * What a link's page costs on D1: the rows D1 reads (`meta.rows_read`, what it bills and waits
 * for) for `GET /l/:slug` stay the same whether the link has 0, 1,000 or 10,000 paid payments.
 */
import type { D1Database } from '@cloudflare/workers-types/index.ts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { T0 } from '../support/manual-time.js'
import { type MeteredWorker, startMeteredWorker } from './d1-meter.js'

const SIZES = [0, 1_000, 10_000] as const
const CHUNK = 1_000

let w: MeteredWorker
let d1: D1Database
const slugs = new Map<number, string>()

/** A link with `paid` paid payments of 1500 DZD, written straight into D1 a thousand at a time. */
async function seedLink(paid: number): Promise<string> {
  const id = `lnk_reads${paid}`
  const slug = `reads${String(paid).padStart(7, '0')}`
  await d1
    .prepare(
      `INSERT INTO links (id, slug, title, amount, language, created_at, updated_at)
       VALUES (?1, ?2, 'Consultation', 150000, 'fr', ?3, ?3)`,
    )
    .bind(id, slug, T0)
    .run()
  const insert = d1.prepare(
    `WITH RECURSIVE seq(n) AS (SELECT ?1 UNION ALL SELECT n + 1 FROM seq WHERE n < ?2)
     INSERT INTO payments (id, receipt_id, link_id, status, amount, customer_name, customer_phone,
       customer_email, language, created_at, updated_at, paid_at)
     SELECT 'pay_' || ?3 || '_' || n, 'rcp_' || ?3 || '_' || n, ?3, 'paid', 150000, 'Client',
       '0550000000', 'client@example.dz', 'fr', ?4 + n, ?4 + n, ?4 + n FROM seq`,
  )
  const batch = []
  for (let first = 1; first <= paid; first += CHUNK)
    batch.push(insert.bind(first, Math.min(paid, first + CHUNK - 1), id, T0))
  if (batch.length > 0) await d1.batch(batch)
  return slug
}

beforeAll(async () => {
  w = await startMeteredWorker()
  d1 = (await w.mf.getD1Database('DB')) as unknown as D1Database
  for (const n of SIZES) slugs.set(n, await seedLink(n))
  // The isolate's start (configuration, settings) is not a page view.
  expect((await w.get('/healthz')).status).toBe(200)
}, 120_000)

afterAll(async () => {
  await w?.close()
})

describe('GET /l/:slug on D1', () => {
  it('seeds what it says: each link counts its paid payments', async () => {
    for (const n of SIZES) {
      const link = await d1
        .prepare('SELECT paid_count, paid_total FROM links WHERE slug = ?')
        .bind(slugs.get(n))
        .first<{ paid_count: number; paid_total: number }>()
      expect(link).toEqual({ paid_count: n, paid_total: n * 150000 })
    }
  })

  it('reads at most 5 rows whatever the number of paid payments', async () => {
    const reads: number[] = []
    for (const n of SIZES) {
      const { status, body, tally } = await w.get(`/l/${slugs.get(n)}`)
      expect(status).toBe(200)
      expect(body).toContain('Consultation')
      // The meter saw the page's statements and nothing went past it.
      expect(tally.statements).toBeGreaterThan(0)
      expect(tally.unmeasured).toBe(0)
      reads.push(tally.rowsRead)
    }
    expect(Math.max(...reads)).toBeLessThanOrEqual(5)
    expect(new Set(reads).size).toBe(1)
  })

  it('counts rows as the issue does: aggregating the payments reads 2N of them', async () => {
    // What the page used to run per view; shows the meter's unit is the one that grew.
    const { meta } = await d1
      .prepare(
        `SELECT (SELECT count(*) FROM payments p WHERE p.link_id = l.id AND p.status = 'paid'),
                (SELECT total(amount) FROM payments p WHERE p.link_id = l.id AND p.status = 'paid')
         FROM links l WHERE l.slug = ?`,
      )
      .bind(slugs.get(10_000))
      .all()
    expect(meta.rows_read).toBeGreaterThanOrEqual(20_000)
  })
})
