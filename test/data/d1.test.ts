/**
 * The same queries on D1 (local workerd through miniflare), with the checked-in migration files
 * applied as wrangler would apply them: one code base, two drivers.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { drizzle } from 'drizzle-orm/d1'
import { Miniflare } from 'miniflare'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import * as schema from '../../db/schema.js'
import { insertApiKey, revokeKeysOfPerson } from '../../src/data/api-keys.js'
import type { Db } from '../../src/data/db.js'
import {
  claimInboxEvent,
  listInboxDue,
  markInboxEvent,
  recordInboxEvent,
} from '../../src/data/gateway-inbox.js'
import { createLink, getLinkBySlug, listLinks, updateLink } from '../../src/data/links.js'
import { decodeCursor } from '../../src/data/paging.js'
import {
  adoptTransaction,
  applyOutcome,
  countPaymentsBeyondMax,
  getPaymentWithin,
  listPayments,
  listPaymentsDueForCheck,
  markError,
  markPending,
  reservePayment,
  scheduleNextCheck,
} from '../../src/data/payments.js'
import {
  engageBackoff,
  giveBackRateLimitSlot,
  hitRateLimit,
  type RateLimitSlot,
  readRateLimits,
  takeRateLimitSlot,
} from '../../src/data/rate-limits.js'
import { setSettingIfAbsent } from '../../src/data/settings.js'
import { purgeSpentTokens, spendToken } from '../../src/data/spent-tokens.js'
import { createUser, removeUser, setRole } from '../../src/data/users.js'
import { INBOX_REPLAY_GRACE_MS } from '../../src/domain/check-schedule.js'
import { MIGRATIONS_FOLDER } from '../../src/runtime/node/database.js'
import { linkValues } from '../support/links.js'
import { paymentRequest, T0 } from './helpers.js'

let mf: Miniflare
let db: Db

beforeAll(async () => {
  mf = new Miniflare({
    modules: true,
    script: 'export default { fetch() { return new Response("") } }',
    d1Databases: { DB: 'paylinks-test' },
  })
  const d1 = await mf.getD1Database('DB')
  const files = readdirSync(MIGRATIONS_FOLDER).filter((f) => f.endsWith('.sql'))
  for (const file of files.sort()) {
    const text = readFileSync(join(MIGRATIONS_FOLDER, file), 'utf8')
    for (const statement of text.split('--> statement-breakpoint')) {
      if (statement.trim()) await d1.prepare(statement).run()
    }
  }
  db = drizzle(d1, { schema })
}, 60_000)

afterAll(async () => {
  await mf?.dispose()
})

describe('on D1', () => {
  it('reserves places up to max_payments, then tells in progress from completed', async () => {
    const link = await createLink(db, linkValues({ maxPayments: 2 }), T0)
    const first = await reservePayment(db, paymentRequest(link), T0)
    const second = await reservePayment(db, paymentRequest(link), T0 + 1)
    expect(first.ok && second.ok).toBe(true)
    expect(await reservePayment(db, paymentRequest(link), T0 + 2)).toMatchObject({
      ok: false,
      reason: 'in_progress',
    })
    for (const r of [first, second])
      if (r.ok) await applyOutcome(db, r.payment.id, 'paid', {}, T0 + 3, 'webhook')
    expect(await reservePayment(db, paymentRequest(link), T0 + 4)).toEqual({
      ok: false,
      reason: 'completed',
    })
    expect(await getLinkBySlug(db, link.slug)).toMatchObject({ paidCount: 2, paidTotal: 300000 })
    const listed = await listLinks(db)
    expect(listed.items.find((l) => l.id === link.id)).toMatchObject({ active: true, paidCount: 2 })
  })

  it('applies transitions once and never moves a paid payment', async () => {
    const link = await createLink(
      db,
      linkValues({ invoiceItems: [{ description: 'a', quantity: 1, unitPrice: 150000 }] }),
      T0,
    )
    const r = await reservePayment(db, paymentRequest(link), T0)
    if (!r.ok) throw new Error(r.reason)
    const ids = {
      transactionId: 't',
      cibTransactionId: 'd1-1',
      paymentUrl: 'https://x',
      gatewayResponse: { a: 1 },
    }
    expect((await markPending(db, r.payment.id, ids, T0 + 1)).payment).toMatchObject({
      status: 'pending',
      gatewayResponse: { a: 1 },
    })
    const [due] = await listPaymentsDueForCheck(db, T0 + 61_001, 10)
    expect(due?.id).toBe(r.payment.id)
    expect(await scheduleNextCheck(db, due!, T0 + 61_001)).toBe(true)
    expect((await applyOutcome(db, r.payment.id, 'failed', {}, T0 + 2, 'webhook')).changed).toBe(
      true,
    )
    expect((await applyOutcome(db, r.payment.id, 'paid', {}, T0 + 3, 'webhook')).changed).toBe(true)
    expect((await applyOutcome(db, r.payment.id, 'paid', {}, T0 + 4, 'webhook')).changed).toBe(
      false,
    )
    expect(
      (await applyOutcome(db, r.payment.id, 'expired', {}, T0 + 5, 'webhook')).payment,
    ).toMatchObject({
      status: 'paid',
      paidAt: T0 + 3,
    })
    expect((await getLinkBySlug(db, link.slug))?.invoiceItems).toEqual([
      { description: 'a', quantity: 1, unitPrice: 150000 },
    ])
  })

  it('refuses an inactive link and reactivates it', async () => {
    const link = await createLink(db, linkValues(), T0)
    await updateLink(db, link.id, { active: false }, T0)
    expect(await reservePayment(db, paymentRequest(link), T0)).toEqual({
      ok: false,
      reason: 'inactive',
    })
    await updateLink(db, link.id, { active: true }, T0 + 1)
    expect(await reservePayment(db, paymentRequest(link), T0 + 2)).toMatchObject({ ok: true })
  })

  it('adopts a transaction into an error payment once, and flags a paid beyond max_payments', async () => {
    const link = await createLink(db, linkValues({ maxPayments: 1 }), T0)
    const late = await reservePayment(db, paymentRequest(link), T0)
    if (!late.ok) throw new Error(late.reason)
    await markError(db, late.payment.id, 'gateway_timeout', T0 + 1, 'checkout')
    const other = await reservePayment(db, paymentRequest(link), T0 + 2)
    if (!other.ok) throw new Error(other.reason)
    await applyOutcome(db, other.payment.id, 'paid', {}, T0 + 3, 'webhook')
    const ids = { cibTransactionId: '7770001', transactionId: null }
    const adopted = await adoptTransaction(db, late.payment.id, ids, T0 + 4, 'return')
    expect(adopted.payment).toMatchObject({ status: 'pending', cibTransactionId: '7770001' })
    expect((await adoptTransaction(db, late.payment.id, ids, T0 + 5, 'return')).changed).toBe(false)
    const paid = await applyOutcome(db, late.payment.id, 'paid', {}, T0 + 6, 'webhook')
    expect(paid.payment).toMatchObject({ status: 'paid', beyondMaxPayments: true })
    expect(await countPaymentsBeyondMax(db, link.id)).toBe(1)
  })

  it('deduplicates webhooks, keeps the first setting and counts rate-limit hits', async () => {
    const delivery = {
      dedupeKey: 'd1',
      cibTransactionId: '1',
      paymentStatus: 'success',
      payload: '{}',
    }
    expect((await recordInboxEvent(db, delivery, T0)).isNew).toBe(true)
    expect((await recordInboxEvent(db, delivery, T0)).isNew).toBe(false)
    expect(await setSettingIfAbsent(db, 'k', 'a', T0)).toBe('a')
    expect(await setSettingIfAbsent(db, 'k', 'b', T0)).toBe('a')
    const hits = []
    for (let i = 0; i < 3; i++) hits.push((await hitRateLimit(db, 'ip', 2, 60_000, T0)).allowed)
    expect(hits).toEqual([true, true, false])
  })

  it('takes at most the limit of slots at once, and takes a given-back slot again', async () => {
    const taken = await Promise.all(
      Array.from({ length: 8 }, () => takeRateLimitSlot(db, 'slots', 3, 60_000, T0)),
    )
    const slots = taken.filter((t) => !('refused' in t))
    expect(slots).toHaveLength(3)
    await giveBackRateLimitSlot(db, slots[0] as RateLimitSlot)
    expect('refused' in (await takeRateLimitSlot(db, 'slots', 3, 60_000, T0))).toBe(false)
    expect(await takeRateLimitSlot(db, 'slots', 3, 60_000, T0)).toEqual({
      refused: true,
      resetAt: T0 - (T0 % 60_000) + 60_000,
    })
  })

  it('lists the inbox rows still to process, takes one once and marks it', async () => {
    const received = {
      dedupeKey: 'due-1',
      cibTransactionId: '2',
      paymentStatus: 'success',
      payload: '{}',
    }
    const { event } = await recordInboxEvent(db, received, T0)
    await recordInboxEvent(db, { ...received, dedupeKey: 'done-1', status: 'processed' }, T0)
    const now = T0 + INBOX_REPLAY_GRACE_MS
    // The database is shared by this file's tests: only this test's rows are looked at.
    const keys = async (at: number) =>
      (await listInboxDue(db, at, { limit: 10 }))
        .map((e) => e.dedupeKey)
        .filter((k) => k.endsWith('-1'))
    expect(await keys(now - 1)).toEqual([])
    expect(await keys(now)).toEqual(['due-1'])
    expect(await claimInboxEvent(db, event, now)).toBe(true)
    expect(await claimInboxEvent(db, event, now)).toBe(false)
    expect(await markInboxEvent(db, event.id, { status: 'processed' }, now, true)).toMatchObject({
      status: 'processed',
      attempts: 1,
    })
    expect(await keys(now + 86_400_000)).toEqual([])
  })

  it('engages a growing backoff once, and reads it back', async () => {
    const durations = { firstMs: 300_000, maxMs: 3_600_000, memoryMs: 3_600_000 }
    expect(await engageBackoff(db, 'backoff', T0, durations)).toEqual({
      level: 1,
      until: T0 + 300_000,
    })
    expect(await engageBackoff(db, 'backoff', T0 + 1, durations)).toBeNull()
    expect(await engageBackoff(db, 'backoff', T0 + 300_000, durations)).toEqual({
      level: 2,
      until: T0 + 900_000,
    })
    const rows = await readRateLimits(db, ['backoff', 'none'])
    expect(rows.get('backoff')).toMatchObject({ windowStart: T0 + 900_000, count: 2 })
    expect(rows.has('none')).toBe(false)
  })

  it('pages through payments of several statuses, newest first, by cursor (row values)', async () => {
    const link = await createLink(db, linkValues({ title: 'Paged' }), T0)
    const ids: string[] = []
    for (let i = 0; i < 7; i++) {
      const r = await reservePayment(db, paymentRequest(link), T0 + (i % 3) * 1000)
      if (!r.ok) throw new Error(r.reason)
      if (i % 2 === 0) await markError(db, r.payment.id, 'gateway_down', T0 + 10_000, 'checkout')
      ids.push(r.payment.id)
    }
    const seen: string[] = []
    let next: string | null = null
    do {
      const cursor = next ? (decodeCursor(next) ?? undefined) : undefined
      const page: { items: { id: string }[]; nextCursor: string | null } = await listPayments(db, {
        linkId: link.id,
        status: ['error', 'initiated'],
        limit: 2,
        ...(cursor ? { cursor } : {}),
      })
      seen.push(...page.items.map((p) => p.id))
      next = page.nextCursor
    } while (next)
    const newest = [...ids.entries()]
      .sort(([a, x], [b, y]) => (b % 3) - (a % 3) || (x < y ? 1 : -1))
      .map(([, id]) => id)
    expect(seen).toEqual(newest)
  })

  it("copies the link's source onto the payment and lists a source by it", async () => {
    const made = new Map<string, string>()
    for (const source of ['till', 'api'] as const) {
      const link = await createLink(db, linkValues(), T0, { source })
      const r = await reservePayment(db, paymentRequest(link), T0 + 10)
      if (!r.ok) throw new Error(r.reason)
      expect(r.payment.source).toBe(source)
      made.set(source, r.payment.id)
    }
    const till = await listPayments(db, { source: 'till' })
    expect(till.items.map((p) => p.id)).toEqual([made.get('till')])
    const api = await listPayments(db, { source: 'api', status: 'initiated' })
    expect(api.items.map((p) => [p.id, p.source])).toEqual([[made.get('api'), 'api']])
  })

  it("merges a metadata change in the UPDATE, refuses a 21st key, and copies the link's metadata onto a payment", async () => {
    const twenty = Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`k${i}`, `${i}`]))
    const link = await createLink(db, linkValues({ metadata: { a: '1', b: '2' } }), T0)
    const merged = await updateLink(db, link.id, { metadata: { b: '', c: '3' } }, T0 + 1)
    expect(merged?.metadata).toEqual({ a: '1', c: '3' })
    const r = await reservePayment(db, paymentRequest(link), T0 + 10)
    if (!r.ok) throw new Error(r.reason)
    expect(r.payment.metadata).toEqual({ a: '1', c: '3' })
    expect(await updateLink(db, link.id, { metadata: null }, T0 + 2)).toMatchObject({
      metadata: {},
    })
    expect(await updateLink(db, link.id, { metadata: twenty }, T0 + 3)).toMatchObject({
      metadata: twenty,
    })
    expect(await updateLink(db, link.id, { metadata: { extra: 'x' } }, T0 + 4)).toBeNull()
    const payment = await getPaymentWithin(db, r.payment.id, {})
    expect(payment?.metadata).toEqual({ a: '1', c: '3' })
  })

  it("narrows payments to a cashier's day, without another cashier's sales, in the list and by id", async () => {
    // A day of its own, far from the other tests' payments.
    const day = T0 + 400 * 86_400_000
    const mine = await createLink(db, linkValues(), day, { source: 'till', createdBy: 'c1@d1.dz' })
    const theirs = await createLink(db, linkValues(), day, {
      source: 'till',
      createdBy: 'c2@d1.dz',
    })
    const shared = await createLink(db, linkValues(), day - 50 * 86_400_000)
    const ids: string[] = []
    for (const [link, at] of [
      [mine, day + 20],
      [theirs, day + 20],
      [mine, day - 40 * 86_400_000],
      [shared, day + 30],
      [shared, day - 40 * 86_400_000],
    ] as const) {
      const r = await reservePayment(db, paymentRequest(link), at)
      if (!r.ok) throw new Error(r.reason)
      ids.push(r.payment.id)
    }
    const scope = { seenByCashier: 'c1@d1.dz', createdFrom: day, createdTo: day + 86_400_000 }
    const listed = (await listPayments(db, scope)).items.map((p) => p.id)
    expect(listed.sort()).toEqual([ids[0], ids[3]].sort())
    expect((await getPaymentWithin(db, ids[0]!, scope))?.id).toBe(ids[0])
    expect((await getPaymentWithin(db, ids[3]!, scope))?.id).toBe(ids[3])
    for (const hidden of [ids[1], ids[2], ids[4]])
      expect(await getPaymentWithin(db, hidden!, scope)).toBeNull()
  })

  it('keeps the last owner in the one statement that demotes or removes', async () => {
    const owner = async (email: string) =>
      (await createUser(db, { email, name: email, role: 'owner', passwordHash: 'x' }, T0))!.id
    const [a, b] = [await owner('a@d1.dz'), await owner('b@d1.dz')]
    const demoted = await Promise.all([
      setRole(db, b, 'cashier', T0),
      setRole(db, a, 'cashier', T0),
    ])
    expect([...demoted].sort()).toEqual(['done', 'last_owner'])
    expect(await setRole(db, demoted[0] === 'done' ? b : a, 'owner', T0)).toBe('done')
    const removed = await Promise.all([removeUser(db, a), removeUser(db, b)])
    expect([...removed].sort()).toEqual(['done', 'last_owner'])
  })

  it('revokes the keys a removed person leaves, through the keys made with them', async () => {
    const key = (id: string, userId: string | null, createdBy: string | null) =>
      insertApiKey(
        db,
        { id, name: id, prefix: id, keyHash: `hash-${id}`, scope: 'write', userId, createdBy },
        T0,
      )
    await key('key_own', 'usr_gone', 'usr_gone')
    await key('key_store', null, 'usr_gone')
    await key('key_child', null, 'key_store')
    await key('key_grandchild', null, 'key_child')
    await key('key_of_own', null, 'key_own')
    await key('key_admin', null, null)
    await key('key_other', null, 'usr_other')
    const revoked = await revokeKeysOfPerson(db, 'usr_gone', T0 + 1)
    expect(revoked.map((k) => k.id).sort()).toEqual([
      'key_child',
      'key_grandchild',
      'key_of_own',
      'key_own',
      'key_store',
    ])
    expect(await revokeKeysOfPerson(db, 'usr_gone', T0 + 2)).toEqual([])
  })

  it('spends a captcha solution once and purges it after it expires', async () => {
    expect(await spendToken(db, 'altcha:d1', T0 + 60_000)).toBe(true)
    expect(await spendToken(db, 'altcha:d1', T0 + 60_000)).toBe(false)
    expect(await purgeSpentTokens(db, T0 + 3 * 60_000)).toBe(1)
    expect(await spendToken(db, 'altcha:d1', T0 + 60_000)).toBe(true)
  })
})
