/**
 * `/api/v1/products`: create (201, Location), read, list (active, q, cursor), change, delete only
 * a product never sold (409 `product_sold` otherwise), a SKU unique whatever its case (409
 * `sku_in_use` naming sku), 400s naming each bad field, a read key refused writes, an
 * Idempotency-Key replayed, and the audit log's entries.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { productObject } from '../../src/api/products/object-schemas.js'
import { type Paylinks, startPaylinks } from '../support/harness.js'
import { api } from './helpers.js'

const T0 = Date.UTC(2026, 2, 1, 9, 30, 0)
let now = T0
let p: Paylinks
beforeEach(async () => {
  now = T0
  p = await startPaylinks({ clock: () => now })
})
afterEach(() => p.close())

const TAJINE = {
  name: 'Tajine en terre cuite',
  description: 'Fait main, 30 cm',
  price: 2500.5,
  stock: 12,
  sku: 'TAJ-30',
}

const stored = (id: string) =>
  p.sqlite.sqlite.prepare('SELECT * FROM products WHERE id = ?').get(id) as Record<string, unknown>

const auditActions = () =>
  (
    p.sqlite.sqlite.prepare('SELECT action FROM audit_log ORDER BY id').all() as {
      action: string
    }[]
  ).map((r) => r.action)

describe('products API', () => {
  it('creates a product: 201, Location, the object in the documented shape, centimes inside', async () => {
    const res = await api(p, 'POST', '/api/v1/products', { json: TAJINE })
    expect(res.status).toBe(201)
    expect(res.headers.get('location')).toBe(`${p.url}/api/v1/products/${res.body.id}`)
    expect(res.body).toEqual({
      id: expect.stringMatching(/^prod_[0-9A-Za-z]{16}$/),
      name: 'Tajine en terre cuite',
      description: 'Fait main, 30 cm',
      price: 2500.5,
      currency: 'DZD',
      stock: 12,
      sku: 'TAJ-30',
      active: true,
      image_url: null,
      created_at: new Date(T0).toISOString(),
      updated_at: new Date(T0).toISOString(),
    })
    expect(productObject.strict().safeParse(res.body).success).toBe(true)
    expect(stored(res.body.id)).toMatchObject({ price: 250_050, stock: 12, sold_count: 0 })
    const unlimited = await api(p, 'POST', '/api/v1/products', {
      json: { name: 'Séance', price: 800 },
    })
    expect(unlimited.body).toMatchObject({ stock: null, sku: null, description: null })
    const read = await api(p, 'GET', `/api/v1/products/${res.body.id}`)
    expect(read.body).toEqual(res.body)
  })

  it('answers 400 naming each bad field, and stores nothing', async () => {
    const res = await api(p, 'POST', '/api/v1/products', {
      json: { price: 0, stock: -1, sku: 'bad sku!', active: 'yes', colour: 'red' },
    })
    expect(res.status).toBe(400)
    expect(res.body.error.code).toBe('invalid_body')
    expect(res.body.error.fields).toEqual({
      name: 'name is required',
      price: 'price must be more than 0 DZD',
      stock: 'stock must be at least 0',
      sku: 'sku must start with a letter or digit and hold only letters, digits, ., _, - and / (at most 64)',
      active: 'active must be true or false',
      colour: 'colour is not a field of a product',
    })
    const decimals = await api(p, 'POST', '/api/v1/products', {
      json: { name: 'x', price: 10.001, stock: 1.5 },
    })
    expect(Object.keys(decimals.body.error.fields).sort()).toEqual(['price', 'stock'])
    expect(p.sqlite.sqlite.prepare('SELECT count(*) AS n FROM products').get()).toEqual({ n: 0 })
  })

  it('refuses a SKU another product has, whatever its case: 409 sku_in_use naming sku', async () => {
    await api(p, 'POST', '/api/v1/products', { json: TAJINE })
    const again = await api(p, 'POST', '/api/v1/products', {
      json: { ...TAJINE, sku: 'taj-30' },
    })
    expect(again.status).toBe(409)
    expect(again.body.error.code).toBe('sku_in_use')
    expect(Object.keys(again.body.error.fields)).toEqual(['sku'])
    const other = await api(p, 'POST', '/api/v1/products', { json: { ...TAJINE, sku: 'TAJ-20' } })
    const patch = await api(p, 'PATCH', `/api/v1/products/${other.body.id}`, {
      json: { sku: 'Taj-30' },
    })
    expect(patch.status).toBe(409)
    expect(patch.body.error.code).toBe('sku_in_use')
  })

  it('changes the fields named, clears the stock with null, archives with active false', async () => {
    const made = (await api(p, 'POST', '/api/v1/products', { json: TAJINE })).body
    now += 60_000
    const res = await api(p, 'PATCH', `/api/v1/products/${made.id}`, {
      json: { price: 2700, stock: null, description: null },
    })
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({
      name: TAJINE.name,
      price: 2700,
      stock: null,
      description: null,
      sku: 'TAJ-30',
      updated_at: new Date(now).toISOString(),
    })
    const archived = await api(p, 'PATCH', `/api/v1/products/${made.id}`, {
      json: { active: false },
    })
    expect(archived.body.active).toBe(false)
    const bad = await api(p, 'PATCH', `/api/v1/products/${made.id}`, { json: { stock: 'many' } })
    expect(bad.status).toBe(400)
    expect(bad.body.error.fields).toEqual({ stock: 'stock must be a whole number' })
    const none = await api(p, 'PATCH', '/api/v1/products/prod_nothing', { json: { price: 1 } })
    expect(none.status).toBe(404)
    expect(auditActions()).toEqual(['product_created', 'product_updated', 'product_archived'])
  })

  it('deletes a product never sold, refuses a sold one with 409 product_sold, and keeps it', async () => {
    const unsold = (await api(p, 'POST', '/api/v1/products', { json: TAJINE })).body
    const sold = (await api(p, 'POST', '/api/v1/products', { json: { ...TAJINE, sku: null } })).body
    p.sqlite.sqlite.prepare('UPDATE products SET sold_count = 3 WHERE id = ?').run(sold.id)
    const refused = await api(p, 'DELETE', `/api/v1/products/${sold.id}`)
    expect(refused.status).toBe(409)
    expect(refused.body.error.code).toBe('product_sold')
    expect(refused.body.error.message).toMatch(/"active": false/)
    expect(stored(sold.id)).toBeTruthy()
    const gone = await api(p, 'DELETE', `/api/v1/products/${unsold.id}`)
    expect(gone.status).toBe(204)
    expect(stored(unsold.id)).toBeUndefined()
    expect((await api(p, 'DELETE', `/api/v1/products/${unsold.id}`)).status).toBe(404)
    expect(auditActions()).toEqual(['product_created', 'product_created', 'product_deleted'])
  })

  it('lists newest first by cursor, with the active filter and a search by name or SKU', async () => {
    const ids: string[] = []
    for (const [i, name] of ['Miel de jujubier', 'Huile d’olive', 'Dattes'].entries()) {
      now = T0 + i
      const res = await api(p, 'POST', '/api/v1/products', {
        json: { name, price: 1000, sku: `SKU-${i}`, active: i !== 1 },
      })
      ids.push(res.body.id)
    }
    const first = await api(p, 'GET', '/api/v1/products?limit=2')
    expect(first.body.data.map((x: { id: string }) => x.id)).toEqual([ids[2], ids[1]])
    expect(first.body.has_more).toBe(true)
    const next = await api(
      p,
      'GET',
      `/api/v1/products?limit=2&cursor=${encodeURIComponent(first.body.next_cursor)}`,
    )
    expect(next.body).toMatchObject({ has_more: false, next_cursor: null })
    expect(next.body.data.map((x: { id: string }) => x.id)).toEqual([ids[0]])
    const archived = await api(p, 'GET', '/api/v1/products?active=false')
    expect(archived.body.data.map((x: { id: string }) => x.id)).toEqual([ids[1]])
    const found = await api(p, 'GET', '/api/v1/products?q=MIEL')
    expect(found.body.data.map((x: { id: string }) => x.id)).toEqual([ids[0]])
    const bySku = await api(p, 'GET', '/api/v1/products?q=sku-2')
    expect(bySku.body.data.map((x: { id: string }) => x.id)).toEqual([ids[2]])
    const bad = await api(p, 'GET', '/api/v1/products?active=yes&limit=0')
    expect(bad.status).toBe(400)
    expect(Object.keys(bad.body.error.fields).sort()).toEqual(['active', 'limit'])
  })

  it('lets a read key list but not write (403), and answers 405 to another method', async () => {
    const key = (
      await api(p, 'POST', '/api/v1/api-keys', { json: { name: 'catalogue', scope: 'read' } })
    ).body.key as string
    expect((await api(p, 'GET', '/api/v1/products', { token: key })).status).toBe(200)
    const write = await api(p, 'POST', '/api/v1/products', { token: key, json: TAJINE })
    expect(write.status).toBe(403)
    expect(write.body.error.code).toBe('forbidden')
    const put = await api(p, 'PUT', '/api/v1/products', { json: TAJINE })
    expect(put.status).toBe(405)
    expect(put.headers.get('allow')).toBe('GET, POST')
  })

  it('replays a create sent again with the same Idempotency-Key, making one product', async () => {
    const headers = { 'idempotency-key': 'catalogue-import-17' }
    const first = await api(p, 'POST', '/api/v1/products', { json: TAJINE, headers })
    now += 60_000
    const again = await api(p, 'POST', '/api/v1/products', { json: TAJINE, headers })
    expect(again.status).toBe(201)
    expect(again.headers.get('idempotent-replayed')).toBe('true')
    expect(again.headers.get('location')).toBe(first.headers.get('location'))
    expect(again.body).toEqual(first.body)
    expect(p.sqlite.sqlite.prepare('SELECT count(*) AS n FROM products').get()).toEqual({ n: 1 })
  })
})
