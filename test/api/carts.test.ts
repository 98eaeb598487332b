/**
 * Carts through the merchant API: a link's `line_items` (its amount their price × quantity, shown
 * in the link object), each refusal naming its field (`line_items[2].quantity`), a PATCH between
 * a cart and an amount, and a checkout of products (priced from the catalogue, its stock held by
 * its payment).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { linkObject } from '../../src/api/links/object-schemas.js'
import { Browser } from '../dashboard/helpers.js'
import { openCheckout, startPayment } from '../flows/support.js'
import { type Paylinks, startPaylinks } from '../support/harness.js'
import { api, rowCount } from './helpers.js'

let p: Paylinks
beforeEach(async () => {
  p = await startPaylinks()
})
afterEach(() => p.close())

async function product(body: Record<string, unknown>): Promise<string> {
  const res = await api(p, 'POST', '/api/v1/products', { json: body })
  expect(res.status).toBe(201)
  return res.body.id
}

const link = (json: Record<string, unknown>) =>
  api(p, 'POST', '/api/v1/links', { json: { title: 'Boutique', ...json } })

describe('a link with line_items', () => {
  it('is a cart: its amount is the sum of price × quantity, its lines in the object', async () => {
    const tapis = await product({ name: 'Tapis', price: 4500, stock: 3 })
    const coussin = await product({ name: 'Coussin', price: 1200.5 })
    const res = await link({
      line_items: [
        { product_id: tapis, quantity: 2, adjustable_quantity: { min: 1, max: 3 } },
        { product_id: coussin, quantity: 1 },
      ],
    })
    expect(res.status).toBe(201)
    expect(linkObject.parse(res.body)).toEqual(res.body)
    expect(res.body.amount).toBe(10_200.5)
    expect(res.body.line_items).toEqual([
      { product_id: tapis, quantity: 2, adjustable_quantity: { min: 1, max: 3 } },
      { product_id: coussin, quantity: 1, adjustable_quantity: null },
    ])
    // An amount replaces the cart; line_items again replace the amount.
    const fixed = await api(p, 'PATCH', `/api/v1/links/${res.body.id}`, { json: { amount: 800 } })
    expect(fixed.body).toMatchObject({ amount: 800, line_items: null })
    const cart = await api(p, 'PATCH', `/api/v1/links/${res.body.id}`, {
      json: { line_items: [{ product_id: coussin, quantity: 3 }] },
    })
    expect(cart.body).toMatchObject({ amount: 3601.5, line_items: [{ product_id: coussin }] })
  })

  it('refuses each bad line with 400, naming the field, and stores nothing', async () => {
    const tapis = await product({ name: 'Tapis', price: 4500 })
    const coussin = await product({ name: 'Coussin', price: 1200 })
    const vieux = await product({ name: 'Vieux tapis', price: 3000 })
    expect(
      (await api(p, 'PATCH', `/api/v1/products/${vieux}`, { json: { active: false } })).status,
    ).toBe(200)
    const refused = async (json: Record<string, unknown>) => {
      const res = await link(json)
      expect(res.status, JSON.stringify(res.body)).toBe(400)
      expect(res.body.error.code).toBe('invalid_body')
      return res.body.error.fields as Record<string, string>
    }
    expect(
      await refused({ amount: 500, line_items: [{ product_id: tapis, quantity: 1 }] }),
    ).toEqual({
      amount:
        'amount must be left out with line_items: the amount is the products’ price × quantity',
    })
    expect(
      await refused({
        line_items: [
          { product_id: tapis, quantity: 1 },
          { product_id: coussin, quantity: 1, adjustable_quantity: { min: 3, max: 2 } },
          { product_id: 'prod_nope', quantity: 5, adjustable_quantity: { min: 1, max: 4 } },
          { product_id: tapis, quantity: 1 },
        ],
      }),
    ).toEqual({
      'line_items[1].adjustable_quantity.max':
        'line_items[1].adjustable_quantity.max must not be less than amount_min',
      'line_items[2].quantity': 'line_items[2].quantity must be from 1 to 4',
      'line_items[3].product_id':
        'line_items[3].product_id names a product an earlier line already names',
    })
    expect(
      await refused({
        line_items: [
          { product_id: 'prod_nope', quantity: 1 },
          { product_id: vieux, quantity: 1 },
          { product_id: coussin, quantity: 1 },
        ],
      }),
    ).toEqual({
      'line_items[0].product_id': 'line_items[0].product_id names no product of this Paylinks',
      'line_items[1].product_id': 'line_items[1].product_id names an archived product',
    })
    expect(await refused({ line_items: [{ product_id: coussin, quantity: 0 }] })).toEqual({
      'line_items[0].quantity': 'line_items[0].quantity must be at least 1',
    })
    const many = Array.from({ length: 21 }, () => ({ product_id: tapis, quantity: 1 }))
    expect(Object.keys(await refused({ line_items: many }))).toEqual(['line_items'])
    expect(
      await refused({ line_items: [{ product_id: tapis, quantity: 1, price: 1 }] }),
    ).toMatchObject({ 'line_items[0].price': expect.any(String) })
    expect(rowCount(p, 'links')).toBe(0)
  })
})

describe('a checkout of products', () => {
  it('is priced from the catalogue, shows the cart and holds the stock when paid for', async () => {
    const tapis = await product({ name: 'Tapis', price: 4500, stock: 2, sku: 'TAP-1' })
    const res = await api(p, 'POST', '/api/v1/checkouts', {
      json: {
        success_url: 'https://shop.example.dz/ok',
        line_items: [{ product_id: tapis, quantity: 2 }],
        language: 'fr',
      },
    })
    expect(res.status, JSON.stringify(res.body)).toBe(201)
    expect(res.body.amount).toBe(9000)
    expect(res.body.line_items).toEqual([
      { product_id: tapis, name: 'Tapis', quantity: 2, unit_price: 4500, amount: 9000 },
    ])
    const slug = new URL(res.body.url).pathname.split('/').pop() ?? ''
    const page = await openCheckout(p, slug)
    expect(page.html).toContain('data-line-total="900000"')
    const { payment } = await startPayment(p, slug)
    expect(payment.amount).toBe(900_000)
    expect(payment.lineItems).toEqual([
      { productId: tapis, name: 'Tapis', sku: 'TAP-1', quantity: 2, unitPrice: 450_000 },
    ])
    expect(
      p.sqlite.sqlite.prepare('SELECT held_count FROM products WHERE id = ?').get(tapis),
    ).toEqual({ held_count: 2 })
  })

  it('refuses named and product lines together, and a product twice, with 400', async () => {
    const tapis = await product({ name: 'Tapis', price: 4500 })
    const post = (line_items: unknown[]) =>
      api(p, 'POST', '/api/v1/checkouts', {
        json: { success_url: 'https://shop.example.dz/ok', line_items },
      })
    const mixed = await post([
      { name: 'Livraison', quantity: 1, unit_price: 400 },
      { product_id: tapis, quantity: 1 },
    ])
    expect(mixed.status).toBe(400)
    expect(Object.keys(mixed.body.error.fields)).toEqual(['line_items[1].product_id'])
    const twice = await post([
      { product_id: tapis, quantity: 1 },
      { product_id: tapis, quantity: 2 },
    ])
    expect(twice.status).toBe(400)
    expect(twice.body.error.fields).toEqual({
      'line_items[1].product_id':
        'line_items[1].product_id names a product an earlier line already names',
    })
  })
})

describe('the dashboard link form', () => {
  it('makes a cart from the products table, shows it again for editing, and names its problems', async () => {
    const browser = new Browser(p, { 'accept-language': 'en', 'x-test-ip': '192.0.2.10' })
    expect((await browser.login()).status).toBe(303)
    const tapis = await product({ name: 'Tapis', price: 4500, stock: 3 })
    const coussin = await product({ name: 'Coussin', price: 1200 })
    const form = await (await browser.get('/dashboard/links/new')).text()
    expect(form).toContain(`name="cart_qty_${tapis}"`)
    expect(form).toContain(`name="cart_max_${coussin}"`)
    const base = { title: 'Boutique', pricing: 'cart', language: 'fr', active: 'on' }
    const none = await browser.submit('/dashboard/links/new', '/dashboard/links', base)
    expect(none.status).toBe(400)
    expect(await none.text()).toContain('Give at least one product a quantity.')
    const outside = await browser.submit('/dashboard/links/new', '/dashboard/links', {
      ...base,
      [`cart_qty_${tapis}`]: '5',
      [`cart_min_${tapis}`]: '1',
      [`cart_max_${tapis}`]: '3',
    })
    expect(outside.status).toBe(400)
    expect(await outside.text()).toContain('From 1 to 3.')
    const made = await browser.submit('/dashboard/links/new', '/dashboard/links', {
      ...base,
      [`cart_qty_${tapis}`]: '1',
      [`cart_min_${tapis}`]: '1',
      [`cart_max_${tapis}`]: '3',
      [`cart_qty_${coussin}`]: '2',
      [`cart_qty_${'unused'}`]: '0',
    })
    expect(made.status).toBe(303)
    const id = /\/dashboard\/links\/(lnk_\w+)/.exec(made.headers.get('location') ?? '')?.[1]
    const object = await api(p, 'GET', `/api/v1/links/${id}`)
    expect(object.body.amount).toBe(6900)
    expect(object.body.line_items).toEqual([
      { product_id: tapis, quantity: 1, adjustable_quantity: { min: 1, max: 3 } },
      { product_id: coussin, quantity: 2, adjustable_quantity: null },
    ])
    const edit = await (await browser.get(`/dashboard/links/${id}/edit`)).text()
    expect(edit).toMatch(/name="pricing" value="cart" checked/)
    expect(edit).toContain(`name="cart_max_${tapis}" value="3"`)
    expect(edit).toContain(`name="cart_qty_${coussin}" value="2"`)
  })
})
