/**
 * Search on D1: migration 0009 applied by wrangler to a local D1 (its statement splitter, its
 * SQLite in workerd: test/worker/build.ts), the triggers filling the trigram indexes, and the same list
 * queries as on Node finding payments and links through drizzle's D1 driver. On the same D1, a
 * cart's stock (migration 0029_cart_stock): the last unit wanted by many at once is held by one INSERT only,
 * released when its payment fails, taken when one is paid.
 */
import { drizzle } from 'drizzle-orm/d1'
import { describe, expect, it } from 'vitest'
import * as schema from '../../db/schema.js'
import type { Db } from '../../src/data/db.js'
import { createLink, listLinks } from '../../src/data/links.js'
import { applyOutcome } from '../../src/data/payment-transitions.js'
import { listPayments, markPending, reservePayment } from '../../src/data/payments.js'
import { createProduct } from '../../src/data/products.js'
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

describe('a cart on D1', () => {
  it('sells the last unit to one of many concurrent customers, the rest told it is sold out', async () => {
    const made = await createProduct(
      db(),
      { name: 'Vase', description: null, price: 90_000, stock: 1, sku: null, active: true },
      T0,
    )
    if (!made.ok) throw new Error('no product')
    const id = made.product.id
    const link = await createLink(
      db(),
      linkValues({ amount: 90_000, lineItems: [{ productId: id, quantity: 1, adjustable: null }] }),
      T0,
    )
    const line = { productId: id, name: 'Vase', sku: null, quantity: 1, unitPrice: 90_000 }
    const order = {
      subtotal: 90_000,
      discount: 0,
      fee: 0,
      promoCode: null,
      promoCodeId: null,
      customFields: null,
      lineItems: [line],
    }
    const results = await Promise.all(
      Array.from({ length: 8 }, () => reservePayment(db(), paymentRequest(link, { order }), T0)),
    )
    const held = results.filter((r) => r.ok)
    expect(held).toHaveLength(1)
    for (const r of results.filter((r) => !r.ok))
      expect(r).toEqual({ ok: false, reason: 'sold_out', lines: [{ productId: id, left: 0 }] })
    const counts = () =>
      local
        .d1()
        .prepare('SELECT stock, held_count, sold_count FROM products WHERE id = ?')
        .bind(id)
        .first()
    expect(await counts()).toEqual({ stock: 1, held_count: 1, sold_count: 0 })

    // Its payment fails: the unit is for sale again; the next one paid takes it.
    const first = held[0]!.ok ? held[0]!.payment.id : ''
    await applyOutcome(db(), first, 'failed', {}, T0 + 1, 'webhook')
    expect(await counts()).toEqual({ stock: 1, held_count: 0, sold_count: 0 })
    const next = await reservePayment(db(), paymentRequest(link, { order }), T0 + 2)
    if (!next.ok) throw new Error(next.reason)
    await applyOutcome(db(), next.payment.id, 'paid', {}, T0 + 3, 'webhook')
    expect(await counts()).toEqual({ stock: 0, held_count: 0, sold_count: 1 })
    expect((await reservePayment(db(), paymentRequest(link, { order }), T0 + 4)).ok).toBe(false)
  })
})
