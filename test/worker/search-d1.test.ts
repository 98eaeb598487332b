/**
 * Search on D1: migration 0009 applied by wrangler to a local D1 (its statement splitter, its
 * SQLite in workerd: test/worker/build.ts), the triggers filling the trigram indexes, and the same list
 * queries as on Node finding payments and links through drizzle's D1 driver.
 */
import { drizzle } from 'drizzle-orm/d1'
import { describe, expect, it } from 'vitest'
import * as schema from '../../db/schema.js'
import type { Db } from '../../src/data/db.js'
import { createLink, listLinks } from '../../src/data/links.js'
import { listPayments, markPending, reservePayment } from '../../src/data/payments.js'
import { parseSearch, type SearchTerm } from '../../src/data/search.js'
import { FEW_MATCHES } from '../../src/data/search-sql.js'
import { paymentRequest, T0 } from '../data/helpers.js'
import { linkValues } from '../support/links.js'
import { useLocalD1 } from './support.js'

const local = useLocalD1('search')
const db = () => drizzle(local.d1() as never, { schema }) as unknown as Db

function term(text: string): SearchTerm {
  const parsed = parseSearch(text)
  if (!parsed.ok) throw new Error(parsed.problem)
  return parsed.term
}

describe('search on D1', () => {
  it('finds payments by name, partial phone and order number, and links by title', async () => {
    const link = await createLink(db(), linkValues({ title: 'اشتراك Premium' }), T0)
    const reserve = async (i: number, name: string, phone: string) => {
      const r = await reservePayment(
        db(),
        paymentRequest(link, { customerName: name, customerPhone: phone }),
        T0 + i,
      )
      if (!r.ok) throw new Error(r.reason)
      return r.payment
    }
    const amina = await reserve(0, 'أمينة بن علي', '0661234567')
    const karim = await reserve(1, 'Karim Haddad', '+213770112233')
    await markPending(
      db(),
      karim.id,
      {
        transactionId: null,
        cibTransactionId: '771100',
        orderNumber: '904417',
        paymentUrl: 'https://x',
        gatewayResponse: null,
      },
      T0 + 2,
    )
    const ids = async (text: string) =>
      (await listPayments(db(), { search: term(text) })).items.map((p) => p.id)
    expect(await ids('بن علي')).toEqual([amina.id])
    expect(await ids('٠٦٦١ ٢٣')).toEqual([amina.id])
    expect(await ids('0770 11')).toEqual([karim.id])
    expect(await ids('HADDAD')).toEqual([karim.id])
    expect(await ids('9044')).toEqual([karim.id])
    expect(await ids('" OR * NEAR')).toEqual([])
    const links = await listLinks(db(), { search: term('premium') })
    expect(links.items.map((l) => l.id)).toEqual([link.id])
  })

  it('pages many matches newest first', async () => {
    const link = await createLink(db(), linkValues({ title: 'Don' }), T0)
    const statements = []
    for (let i = 0; i < FEW_MATCHES + 10; i++) {
      statements.push(
        local
          .d1()
          .prepare(
            `INSERT INTO payments (id, receipt_id, link_id, status, amount, customer_name,
               customer_phone, customer_email, language, created_at, updated_at)
             VALUES (?, ?, ?, 'initiated', 1000, ?, '0550000000', 'a@example.dz', 'fr', ?, ?)`,
          )
          .bind(
            `pay_many${String(i).padStart(12, '0')}`,
            `r${i}`,
            link.id,
            `Sofiane ${i}`,
            T0 + 10 + i,
            T0,
          ),
      )
    }
    await local.d1().batch(statements)
    const page = await listPayments(db(), { search: term('sofiane'), limit: 3 })
    expect(page.items.map((p) => p.customerName)).toEqual([
      `Sofiane ${FEW_MATCHES + 9}`,
      `Sofiane ${FEW_MATCHES + 8}`,
      `Sofiane ${FEW_MATCHES + 7}`,
    ])
    expect(page.nextCursor).not.toBeNull()
  })
})
