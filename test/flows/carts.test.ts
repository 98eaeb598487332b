/**
 * A cart link bought through the customer page and the simulator: the quantities chosen within
 * their range, the amount priced from the products, the stock held while the card page is open,
 * taken when paid and given back when the payment fails or expires; the last unit sold once
 * among customers who all try at once; a price changed since the page was shown, refused.
 */
import { execFileSync } from 'node:child_process'
import { afterEach, describe, expect, it } from 'vitest'
import { reservePayment } from '../../src/data/payment-reserve.js'
import { getPaymentById } from '../../src/data/payments.js'
import { api } from '../api/helpers.js'
import { Browser } from '../dashboard/helpers.js'
import { type Paylinks, startPaylinks } from '../support/harness.js'
import { CUSTOMER, openCheckout, pathOf, startPayment, submitCheckout } from './support.js'

let p: Paylinks
afterEach(async () => {
  await p?.close()
})

async function product(body: Record<string, unknown>): Promise<string> {
  const res = await api(p, 'POST', '/api/v1/products', { json: body })
  expect(res.status).toBe(201)
  return res.body.id
}

async function cartLink(lineItems: unknown[], extra: Record<string, unknown> = {}) {
  const res = await api(p, 'POST', '/api/v1/links', {
    json: { title: 'Boutique', language: 'fr', line_items: lineItems, ...extra },
  })
  expect(res.status, JSON.stringify(res.body)).toBe(201)
  return res.body as { id: string; slug: string; amount: number }
}

type Counts = { stock: number | null; held_count: number; sold_count: number }
const counts = (id: string) =>
  p.sqlite.sqlite
    .prepare('SELECT stock, held_count, sold_count FROM products WHERE id = ?')
    .get(id) as Counts

describe('a cart with an adjustable quantity, paid through the simulator', () => {
  it('prices the chosen quantity, holds the units, takes them when paid and shows the lines', async () => {
    p = await startPaylinks({ http: true })
    const tapis = await product({ name: 'Tapis berbère', price: 4500, stock: 10, sku: 'TAP-1' })
    const coussin = await product({ name: 'Coussin', price: 1200.5, stock: null })
    const link = await cartLink([
      { product_id: tapis, quantity: 1, adjustable_quantity: { min: 1, max: 5 } },
      { product_id: coussin, quantity: 2 },
    ])
    expect(link.amount).toBe(4500 + 2 * 1200.5)

    // The page: an input for the adjustable line (prefilled from the query), a fixed line's total.
    const page = await openCheckout(p, link.slug, `?qty_${tapis}=2`)
    expect(page.res.status).toBe(200)
    expect(page.html).toContain(`name="qty_${tapis}"`)
    expect(page.html).toMatch(new RegExp(`name="qty_${tapis}"[^>]*min="1"[^>]*max="5"`))
    expect(page.html).toMatch(new RegExp(`name="qty_${tapis}"[^>]*value="2"`))
    expect(page.html).toContain('data-unit-price="450000"')
    expect(page.html).toContain('data-line-total="240100"')
    expect(page.html).not.toContain(`name="qty_${coussin}"`)

    const { tx, payment, receiptId } = await startPayment(p, link.slug, { [`qty_${tapis}`]: '3' })
    expect(tx.amount).toBe(3 * 450000 + 2 * 120050)
    expect(payment.amount).toBe(3 * 450000 + 2 * 120050)
    expect(payment.subtotal).toBe(payment.amount)
    expect(payment.lineItems).toEqual([
      { productId: tapis, name: 'Tapis berbère', sku: 'TAP-1', quantity: 3, unitPrice: 450000 },
      { productId: coussin, name: 'Coussin', sku: null, quantity: 2, unitPrice: 120050 },
    ])
    expect(counts(tapis)).toEqual({ stock: 10, held_count: 3, sold_count: 0 })
    expect(counts(coussin)).toEqual({ stock: null, held_count: 2, sold_count: 0 })

    await p.simulator.completePayment(tx.cibTransactionId, 'approved')
    await p.settle()
    expect((await getPaymentById(p.deps.db, payment.id))?.status).toBe('paid')
    expect(counts(tapis)).toEqual({ stock: 7, held_count: 0, sold_count: 3 })
    expect(counts(coussin)).toEqual({ stock: null, held_count: 0, sold_count: 2 })

    // The API's payment object carries the lines; the receipt shows them.
    const object = await api(p, 'GET', `/api/v1/payments/${payment.id}`)
    expect(object.body.subtotal).toBe(15_901)
    expect(object.body.line_items).toEqual([
      {
        product_id: tapis,
        name: 'Tapis berbère',
        sku: 'TAP-1',
        quantity: 3,
        unit_price: 4500,
        amount: 13_500,
      },
      {
        product_id: coussin,
        name: 'Coussin',
        sku: null,
        quantity: 2,
        unit_price: 1200.5,
        amount: 2401,
      },
    ])
    const receipt = await (
      await p.app.request(pathOf(tx.returnRedirect ?? `${p.url}/r/${receiptId}`))
    ).text()
    expect(receipt).toContain('Tapis berbère')
    expect(receipt).toMatch(/13\s500,00\sDA/)

    // The PDF lists them (read back with poppler's pdftotext, as test/pdf does).
    const pdf = await p.app.request(`/r/${receiptId}/download?lang=fr`)
    expect(pdf.headers.get('content-type')).toBe('application/pdf')
    const text = execFileSync('pdftotext', ['-layout', '-', '-'], {
      input: Buffer.from(await pdf.arrayBuffer()),
    }).toString()
    expect(text).toContain('Tapis berbère (TAP-1)')
    expect(text).toMatch(/Sous-total\s+15\s901,00\sDA/)

    // The merchant's payment page and the export show the lines too.
    const browser = new Browser(p, { 'accept-language': 'fr', 'x-test-ip': '192.0.2.10' })
    expect((await browser.login()).status).toBe(303)
    const detail = await (await browser.get(`/dashboard/payments/${payment.id}`)).text()
    expect(detail).toContain('id="lines-title"')
    expect(detail).toContain('Tapis berbère')
    expect(detail).toMatch(/Sous-total<\/th><td class="num">15\s901,00\sDA/)
    const csv = await (await browser.get('/dashboard/payments.csv')).text()
    const [header, row] = csv.trim().split(/\r?\n/)
    expect(header?.split(',').slice(-6)).toEqual([
      'subtotal',
      'discount',
      'promo_code',
      'fee',
      'line_items',
      'custom_fields',
    ])
    expect(row).toMatch(/,15901\.00,0\.00,,0\.00,"3 × Tapis berbère \(TAP-1\); 2 × Coussin",$/)

    // Sold once, the product is archived, never deleted.
    const del = await api(p, 'DELETE', `/api/v1/products/${tapis}`)
    expect(del.status).toBe(409)
    expect(del.body.error.code).toBe('product_sold')
  })
})

describe('the cart on the page and its refusals', () => {
  it('refuses a quantity outside the range, naming the field, and holds nothing', async () => {
    p = await startPaylinks()
    const tapis = await product({ name: 'Tapis', price: 4500, stock: 10 })
    const link = await cartLink([
      { product_id: tapis, quantity: 1, adjustable_quantity: { min: 1, max: 3 } },
    ])
    for (const sent of ['4', '0', 'deux', '-1', '1.5']) {
      const res = await submitCheckout(p, link.slug, { [`qty_${tapis}`]: sent })
      expect(res.status, sent).toBe(400)
      const html = await res.text()
      expect(html).toContain(`id="qty_${tapis}-err"`)
      expect(html).toMatch(/Choisissez de 1 à 3|Saisissez un nombre entier/)
    }
    expect(counts(tapis)).toEqual({ stock: 10, held_count: 0, sold_count: 0 })
  })

  it('says "only N left" and "sold out", and a fixed line sold out makes the page unpayable', async () => {
    p = await startPaylinks()
    const few = await product({ name: 'Vase', price: 900, stock: 2 })
    const none = await product({ name: 'Plat', price: 700, stock: 0 })
    const adjustable = await cartLink([
      { product_id: few, quantity: 1, adjustable_quantity: { min: 1, max: 5 } },
    ])
    const page = await openCheckout(p, adjustable.slug)
    expect(page.html).toContain('Plus que 2')
    expect(page.html).toMatch(new RegExp(`name="qty_${few}"[^>]*max="2"`))
    const tooMany = await submitCheckout(p, adjustable.slug, { [`qty_${few}`]: '3' })
    expect(tooMany.status).toBe(400)
    expect(await tooMany.text()).toContain('Plus que 2')
    // The page is never a prepared one: a unit held since is told at once.
    await startPayment(p, adjustable.slug)
    expect((await openCheckout(p, adjustable.slug)).html).toContain('Plus que 1')

    const fixed = await cartLink([
      { product_id: few, quantity: 1 },
      { product_id: none, quantity: 1 },
    ])
    const soldOut = await openCheckout(p, fixed.slug)
    expect(soldOut.html).toContain('Épuisé')
    expect(soldOut.html).toMatch(/<button type="submit" class="pay" disabled/)
    const refused = await submitCheckout(p, fixed.slug)
    expect(refused.status).toBe(400)
    expect(await refused.text()).toContain(`id="qty_${none}-err"`)
  })

  it('a price changed since the page was shown is told, and the page shows the new one', async () => {
    p = await startPaylinks()
    const vase = await product({ name: 'Vase', price: 900, stock: 5 })
    const link = await cartLink([{ product_id: vase, quantity: 1 }])
    const changed = await api(p, 'PATCH', `/api/v1/products/${vase}`, { json: { price: 950 } })
    expect(changed.status).toBe(200)
    // The link's amount follows the price (migration 0029_cart_stock's trigger).
    expect((await api(p, 'GET', `/api/v1/links/${link.id}`)).body.amount).toBe(950)
    const res = await submitCheckout(p, link.slug, { [`price_${vase}`]: '90000' })
    expect(res.status).toBe(400)
    const html = await res.text()
    expect(html).toMatch(/Le prix a changé : il est maintenant de 950,00\sDA/)
    expect(html).toContain(`name="price_${vase}" value="95000"`)
    expect(counts(vase)).toEqual({ stock: 5, held_count: 0, sold_count: 0 })
  })

  it('the INSERT refuses lines priced at a price no longer stored, and too many units', async () => {
    p = await startPaylinks()
    const vase = await product({ name: 'Vase', price: 900, stock: 1 })
    const link = await cartLink([{ product_id: vase, quantity: 1 }])
    const request = (unitPrice: number, quantity = 1) => ({
      linkId: link.id,
      amount: unitPrice * quantity,
      customerName: CUSTOMER.name,
      customerPhone: CUSTOMER.phone,
      customerEmail: CUSTOMER.email,
      language: 'fr' as const,
      order: {
        subtotal: unitPrice * quantity,
        discount: 0,
        fee: 0,
        promoCode: null,
        promoCodeId: null,
        customFields: null,
        lineItems: [{ productId: vase, name: 'Vase', sku: null, quantity, unitPrice }],
      },
    })
    const now = Date.now()
    expect(await reservePayment(p.deps.db, request(85_000), now)).toEqual({
      ok: false,
      reason: 'price_changed',
    })
    expect(await reservePayment(p.deps.db, request(90_000, 2), now)).toEqual({
      ok: false,
      reason: 'sold_out',
      lines: [{ productId: vase, left: 1 }],
    })
    expect((await reservePayment(p.deps.db, request(90_000), now)).ok).toBe(true)
    expect(counts(vase)).toEqual({ stock: 1, held_count: 1, sold_count: 0 })
  })
})

describe('holds given back', () => {
  it('a declined payment releases its hold; an expired one too, and paid late still takes its units', async () => {
    p = await startPaylinks()
    const vase = await product({ name: 'Vase', price: 900, stock: 1 })
    const link = await cartLink([{ product_id: vase, quantity: 1 }])
    const first = await startPayment(p, link.slug)
    expect(counts(vase)).toEqual({ stock: 1, held_count: 1, sold_count: 0 })
    await p.simulator.completePayment(first.tx.cibTransactionId, 'declined')
    await p.settle()
    expect((await getPaymentById(p.deps.db, first.payment.id))?.status).toBe('failed')
    expect(counts(vase)).toEqual({ stock: 1, held_count: 0, sold_count: 0 })

    const second = await startPayment(p, link.slug)
    expect(counts(vase)).toEqual({ stock: 1, held_count: 1, sold_count: 0 })
    // Its card session over: expired, the unit for sale again, and sold to someone else.
    p.sqlite.sqlite
      .prepare(`UPDATE payments SET status = 'expired' WHERE id = ?`)
      .run(second.payment.id)
    expect(counts(vase)).toEqual({ stock: 1, held_count: 0, sold_count: 0 })
    const third = await startPayment(p, link.slug)
    await p.simulator.completePayment(third.tx.cibTransactionId, 'approved')
    await p.settle()
    expect(counts(vase)).toEqual({ stock: 0, held_count: 0, sold_count: 1 })
    // The expired one confirmed paid after all: the money was taken, so it counts, stock at 0.
    p.sqlite.sqlite
      .prepare(`UPDATE payments SET status = 'paid' WHERE id = ?`)
      .run(second.payment.id)
    expect(counts(vase)).toEqual({ stock: 0, held_count: 0, sold_count: 2 })
  })
})

describe('the last unit, wanted by many at once (better-sqlite3, a real file)', () => {
  it('is sold to exactly one customer; the others are told it is sold out', async () => {
    p = await startPaylinks()
    const vase = await product({ name: 'Vase unique', price: 900, stock: 1 })
    const link = await cartLink([{ product_id: vase, quantity: 1 }])
    const customers = 8
    const pages = await Promise.all(
      Array.from({ length: customers }, () => openCheckout(p, link.slug)),
    )
    const answers = await Promise.all(
      pages.map((page, i) =>
        p.app.request(`/l/${link.slug}`, {
          method: 'POST',
          body: new URLSearchParams({ ...CUSTOMER, csrf: page.csrf ?? '' }),
          headers: {
            'content-type': 'application/x-www-form-urlencoded',
            'x-forwarded-for': `198.51.100.${i + 1}`,
          },
        }),
      ),
    )
    const statuses = answers.map((r) => r.status).sort()
    expect(statuses.filter((s) => s === 303)).toHaveLength(1)
    for (const res of answers.filter((r) => r.status !== 303)) {
      expect([400, 409]).toContain(res.status)
      expect(await res.text()).toContain('Épuisé')
    }
    expect(counts(vase)).toEqual({ stock: 1, held_count: 1, sold_count: 0 })
    const started = p.sqlite.sqlite.prepare('SELECT count(*) AS n FROM payments').get()
    expect(started).toEqual({ n: 1 })
  })

  it('is held by one INSERT only when every order was priced before any was held', async () => {
    p = await startPaylinks()
    const vase = await product({ name: 'Vase unique', price: 900, stock: 1 })
    const link = await cartLink([{ product_id: vase, quantity: 1 }])
    const line = { productId: vase, name: 'Vase unique', sku: null, quantity: 1, unitPrice: 90_000 }
    const request = {
      linkId: link.id,
      amount: 90_000,
      customerName: CUSTOMER.name,
      customerPhone: CUSTOMER.phone,
      customerEmail: CUSTOMER.email,
      language: 'fr' as const,
      order: {
        subtotal: 90_000,
        discount: 0,
        fee: 0,
        promoCode: null,
        promoCodeId: null,
        customFields: null,
        lineItems: [line],
      },
    }
    const now = Date.now()
    const results = await Promise.all(
      Array.from({ length: 8 }, () => reservePayment(p.deps.db, request, now)),
    )
    expect(results.filter((r) => r.ok)).toHaveLength(1)
    for (const r of results.filter((r) => !r.ok))
      expect(r).toEqual({ ok: false, reason: 'sold_out', lines: [{ productId: vase, left: 0 }] })
    expect(counts(vase)).toEqual({ stock: 1, held_count: 1, sold_count: 0 })
  })
})
