/**
 * Search on a real SQLite file: each field a payment is found by, Arabic and Latin substrings,
 * partial phones in any form, links by title, the index kept by the triggers as rows change, and
 * hostile text that must stay text (never an FTS5 expression, never an error).
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { Link } from '../../db/schema.js'
import { listLinks, updateLink } from '../../src/data/links.js'
import { listPayments, markPending, reservePayment } from '../../src/data/payments.js'
import { parseSearch, type SearchTerm } from '../../src/data/search.js'
import { FEW_MATCHES } from '../../src/data/search-sql.js'
import { MIGRATIONS_FOLDER } from '../../src/runtime/node/database.js'
import { storeLink } from '../support/links.js'
import { openTestDb, paymentRequest, T0, type TestDb } from './helpers.js'

let t: TestDb
let link: Link
beforeEach(async () => {
  t = openTestDb()
  link = await storeLink(t.db, { title: 'Abonnement annuel' })
})
afterEach(() => t.cleanup())

function term(text: string): SearchTerm {
  const parsed = parseSearch(text)
  if (!parsed.ok) throw new Error(`refused: ${parsed.problem}`)
  return parsed.term
}

async function pay(
  now: number,
  who: Partial<Parameters<typeof paymentRequest>[1]> = {},
  gateway?: { cib: string; order: string },
) {
  const r = await reservePayment(t.db, paymentRequest(link, who), now)
  if (!r.ok) throw new Error(r.reason)
  if (!gateway) return r.payment
  const ids = { transactionId: null, paymentUrl: 'https://x', gatewayResponse: null }
  const moved = await markPending(
    t.db,
    r.payment.id,
    { ...ids, cibTransactionId: gateway.cib, orderNumber: gateway.order },
    now,
  )
  return moved.payment!
}

const found = async (text: string, filters: Parameters<typeof listPayments>[1] = {}) =>
  (await listPayments(t.db, { ...filters, search: term(text) })).items.map((p) => p.id)

describe('searching payments', () => {
  it('finds a payment by each searched field, by a part of it', async () => {
    const amina = await pay(
      T0,
      {
        customerName: 'Amina Benali',
        customerPhone: '0661234567',
        customerEmail: 'amina.benali@djaweb.dz',
        ref: 'CMD-7781',
      },
      { cib: '884412907', order: '900417' },
    )
    await pay(T0 + 1, {
      customerName: 'Karim Haddad',
      customerPhone: '0770000000',
      customerEmail: 'karim@example.dz',
    })
    for (const text of ['Benali', 'mina ben', 'djaweb', '1234', '9004', '4412907', 'CMD-77']) {
      expect(await found(text), text).toEqual([amina.id])
    }
  })

  it('finds Latin text whatever its case, and Arabic text inside a name', async () => {
    const latin = await pay(T0, { customerName: 'Sofiane Cherif' })
    const arabic = await pay(T0 + 1, { customerName: 'أمينة بن علي' })
    expect(await found('CHERIF')).toEqual([latin.id])
    expect(await found('sofiane c')).toEqual([latin.id])
    expect(await found('بن علي')).toEqual([arabic.id])
    expect(await found('مينة')).toEqual([arabic.id])
  })

  it('finds a phone from a part typed with spaces, Arabic digits or the +213 form', async () => {
    const national = await pay(T0, { customerPhone: '0661234567' })
    const international = await pay(T0 + 1, { customerPhone: '+213551987654' })
    expect(await found('0661 23')).toEqual([national.id])
    expect(await found('661234')).toEqual([national.id])
    expect(await found('٠٦٦١ ٢٣٤')).toEqual([national.id])
    expect(await found('+213 661 23')).toEqual([national.id])
    expect(await found('0551 98-76')).toEqual([international.id])
    expect(await found('00213551')).toEqual([international.id])
  })

  it('finds a payment by its exact payment id or receipt id, also from a pasted receipt URL', async () => {
    const p = await pay(T0)
    await pay(T0 + 1)
    expect(await found(p.id)).toEqual([p.id])
    expect(await found(p.receiptId)).toEqual([p.id])
    expect(await found(`https://pay.example.dz/r/${p.receiptId}`)).toEqual([p.id])
  })

  it('finds nothing when no payment holds the text', async () => {
    await pay(T0, { customerName: 'Amina Benali' })
    expect(await found('Zoubir')).toEqual([])
    expect(await found('0699')).toEqual([])
  })

  it('treats FTS5 syntax as plain text: no error, no expression', async () => {
    const odd = await pay(T0, { customerName: 'Ali "OR" NEAR', ref: 'a*b^c' })
    await pay(T0 + 1, { customerName: 'Amina Benali' })
    for (const text of [
      '"OR"',
      'OR NEAR',
      'a*b',
      '"""',
      'NEAR(',
      'ame:x',
      '* OR *',
      '"a" OR "b"',
    ]) {
      const ids = await found(text)
      expect(ids.length, text).toBeLessThanOrEqual(1)
    }
    expect(await found('"OR"')).toEqual([odd.id])
    expect(await found('a*b^c')).toEqual([odd.id])
    // `Amina OR Karim` as FTS5 would find Amina; as text nobody is called that.
    expect(await found('Amina OR Karim')).toEqual([])
    expect(await found('customer_name:Amina')).toEqual([])
  })

  it('keeps the other filters and pages through the matches', async () => {
    const ids: string[] = []
    for (let i = 0; i < 5; i++)
      ids.push((await pay(T0 + i, { customerName: `Walid Saidi ${i}` })).id)
    await pay(T0 + 10, { customerName: 'Meriem Mansouri' })
    const first = await listPayments(t.db, { search: term('saidi'), limit: 2 })
    expect(first.items.map((p) => p.id)).toEqual([ids[4], ids[3]])
    const cursor = { createdAt: first.items[1]!.createdAt, id: first.items[1]!.id }
    const next = await listPayments(t.db, { search: term('saidi'), limit: 2, cursor })
    expect(next.items.map((p) => p.id)).toEqual([ids[2], ids[1]])
    expect(await found('saidi', { createdFrom: T0 + 3 })).toEqual([ids[4], ids[3]])
    expect(await found('saidi', { status: 'paid' })).toEqual([])
    expect(await found('saidi', { status: ['initiated', 'paid'] })).toEqual(ids.slice().reverse())
  })

  it('lists many matches newest first, as it does a few', async () => {
    const ids: string[] = []
    for (let i = 0; i < FEW_MATCHES + 20; i++) {
      ids.push((await pay(T0 + i, { customerName: `Yacine Boudiaf ${i}` })).id)
    }
    const page = await listPayments(t.db, { search: term('boudiaf'), limit: 30 })
    expect(page.items.map((p) => p.id)).toEqual(ids.slice(-30).reverse())
    expect(await found('Boudiaf 7')).toEqual(
      ids.filter((_, i) => String(i).startsWith('7')).reverse(),
    )
  })

  it('follows a payment whose searched fields change, and forgets a deleted one', async () => {
    const p = await pay(T0, { customerName: 'Lina Saidi' })
    expect(await found('884400')).toEqual([])
    await markPending(
      t.db,
      p.id,
      {
        transactionId: null,
        cibTransactionId: '884400123',
        orderNumber: '912345',
        paymentUrl: 'https://x',
        gatewayResponse: null,
      },
      T0 + 1,
    )
    expect(await found('884400')).toEqual([p.id])
    expect(await found('912345')).toEqual([p.id])
    t.sqlite.prepare('DELETE FROM payments WHERE id = ?').run(p.id)
    expect(await found('Lina')).toEqual([])
    // Throws SQLITE_CORRUPT_VTAB when the index and the table disagree.
    t.sqlite.exec(`INSERT INTO payments_search(payments_search) VALUES ('integrity-check')`)
  })

  it('indexes the rows that existed before the migration (its rebuild statements)', async () => {
    const p = await pay(T0, { customerName: 'Sofiane Belkacem' })
    await storeLink(t.db, { title: 'Billet de concert' })
    for (const index of ['payments_search', 'links_search']) {
      t.sqlite.exec(`INSERT INTO ${index}(${index}) VALUES ('delete-all')`)
    }
    expect(await found('Belkacem')).toEqual([])
    const migration = readFileSync(join(MIGRATIONS_FOLDER, '0009_payment_search.sql'), 'utf8')
    const rebuild = migration.split('--> statement-breakpoint').filter((s) => /'rebuild'/.test(s))
    expect(rebuild).toHaveLength(2)
    for (const statement of rebuild) t.sqlite.exec(statement)
    expect(await found('Belkacem')).toEqual([p.id])
    expect((await listLinks(t.db, { search: term('concert') })).items).toHaveLength(1)
  })

  it('still finds the right rows after VACUUM (the index is keyed by rowid)', async () => {
    const gone = await pay(T0, { customerName: 'Nesrine Haddad' })
    const kept = await pay(T0 + 1, { customerName: 'Nesrine Cherif' })
    t.sqlite.prepare('DELETE FROM payments WHERE id = ?').run(gone.id)
    t.sqlite.exec('VACUUM')
    expect(await found('Nesrine')).toEqual([kept.id])
  })
})

describe('searching links', () => {
  it('finds links by a part of the title, in Arabic and Latin, and follows a new title', async () => {
    const arabic = await storeLink(t.db, { title: 'اشتراك شهري' })
    await storeLink(t.db, { title: 'Formation Excel' })
    const titles = async (text: string) =>
      (await listLinks(t.db, { search: term(text) })).items.map((l) => l.id)
    expect(await titles('ABONNEMENT')).toEqual([link.id])
    expect(await titles('شترا')).toEqual([arabic.id])
    await updateLink(t.db, link.id, { title: 'Don mensuel' }, T0 + 5)
    expect(await titles('abonnement')).toEqual([])
    expect(await titles('mensuel')).toEqual([link.id])
    expect(await titles('"OR" *')).toEqual([])
  })
})

describe('reading a search box', () => {
  it('refuses fewer than three characters and more than a hundred', () => {
    expect(parseSearch(' ab ')).toEqual({ ok: false, problem: 'too_short' })
    expect(parseSearch('٠٦')).toEqual({ ok: false, problem: 'too_short' })
    expect(parseSearch('\u0000\u200f"')).toEqual({ ok: false, problem: 'too_short' })
    expect(parseSearch('x'.repeat(101))).toEqual({ ok: false, problem: 'too_long' })
    expect(parseSearch('abc').ok).toBe(true)
  })

  it('quotes every phrase so that only text reaches FTS5', () => {
    expect(term('a"b OR c').match).toBe('"a""b OR c"')
    expect(term('0661 23').match).toBe('"0661 23" OR "066123" OR "+21366123"')
    expect(term('٠٦٦١').text).toBe('0661')
  })
})
