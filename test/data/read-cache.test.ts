import Database from 'better-sqlite3'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { type PublicLink, readLinkBySlug, updateLink } from '../../src/data/links.js'
import { reservePayment } from '../../src/data/payment-reserve.js'
import { createReadCache, type ReadCache } from '../../src/data/read-cache.js'
import { sqliteChangeStamp } from '../../src/runtime/node/runtime.js'
import { storeLink } from '../support/links.js'
import { openTestDb, paymentRequest, T0, type TestDb } from './helpers.js'

describe('link reads cached between writes (SQLite change stamp)', () => {
  let t: TestDb
  let cache: ReadCache<PublicLink | null>
  let reads: number
  beforeEach(() => {
    t = openTestDb()
    cache = createReadCache(sqliteChangeStamp(t))
    reads = 0
  })
  afterEach(() => t.cleanup())

  /** Reads through the cache, counting the reads that reached the database. */
  async function read(slug: string) {
    return cache.read(slug, async () => {
      reads++
      return readLinkBySlug(t.db, slug, undefined)
    })
  }

  it('answers from the cache while nothing is written, frozen', async () => {
    const link = await storeLink(t.db)
    const first = await read(link.slug)
    const second = await read(link.slug)
    expect(second).toBe(first)
    expect(reads).toBe(1)
  })

  it('freezes what it caches: every request shares the object', async () => {
    const link = await storeLink(t.db)
    const shared = await readLinkBySlug(t.db, link.slug, cache)
    expect(Object.isFrozen(shared)).toBe(true)
    expect(await readLinkBySlug(t.db, link.slug, cache)).toBe(shared)
    expect(Object.isFrozen(await readLinkBySlug(t.db, link.slug, undefined))).toBe(false)
  })

  it('shows a change made through this connection at once', async () => {
    const link = await storeLink(t.db)
    await read(link.slug)
    await updateLink(t.db, link.id, { title: 'Nouveau titre' }, T0 + 1)
    expect((await read(link.slug))?.title).toBe('Nouveau titre')
  })

  it('shows a write to another table (a payment becoming paid) at once', async () => {
    const link = await storeLink(t.db)
    expect((await read(link.slug))?.paidCount).toBe(0)
    const reserved = await reservePayment(t.db, paymentRequest(link), T0)
    if (!reserved.ok) throw new Error('not reserved')
    t.sqlite.prepare("UPDATE payments SET status = 'paid' WHERE id = ?").run(reserved.payment.id)
    const after = await read(link.slug)
    expect(after?.paidCount).toBe(1)
    expect(after?.paidTotal).toBe(link.amount)
  })

  it('shows a change committed by another connection (another process) within its window', async () => {
    cache = createReadCache(sqliteChangeStamp(t, 50))
    const link = await storeLink(t.db)
    await read(link.slug)
    const other = new Database(t.path)
    try {
      other.prepare('UPDATE links SET active = 0 WHERE id = ?').run(link.id)
    } finally {
      other.close()
    }
    await new Promise((resolve) => setTimeout(resolve, 60))
    expect((await read(link.slug))?.active).toBe(false)
    expect(reads).toBe(2)
  })

  it('reads no file for the stamp between checks for other writers', async () => {
    const stamp = sqliteChangeStamp(t, 60_000)
    const first = stamp()
    const other = new Database(t.path)
    try {
      other.prepare("INSERT INTO settings (key, value, created_at) VALUES ('x', 'y', 1)").run()
    } finally {
      other.close()
    }
    // Within the window the other connection's commit is not looked for; this connection's are.
    expect(stamp()).toEqual(first)
    await storeLink(t.db)
    expect(stamp()[0]).toBeGreaterThan(first[0])
  })

  it('does not keep unknown slugs', async () => {
    expect(await read('nope')).toBeNull()
    expect(await read('nope')).toBeNull()
    expect(reads).toBe(2)
  })
})
