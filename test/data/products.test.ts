/**
 * The catalogue in the database: a SKU unique whatever its case, a stock that is unlimited (null)
 * or at least 0, deletion only of a product never sold, and images kept while a product shows them.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import {
  createProduct,
  deleteProductIfUnsold,
  getProduct,
  getProductImage,
  listProducts,
  type ProductValues,
  setProductImage,
  updateProduct,
} from '../../src/data/products.js'
import { pngLogo } from '../support/images.js'
import { openTestDb, T0, type TestDb } from './helpers.js'

let t: TestDb
beforeEach(() => {
  t = openTestDb()
})
afterEach(() => t.cleanup())

const VALUES: ProductValues = {
  name: 'Tajine en terre cuite',
  description: null,
  price: 250_000,
  stock: null,
  sku: 'TAJ-01',
  active: true,
}

async function make(values: Partial<ProductValues> = {}, at = T0) {
  const made = await createProduct(t.db, { ...VALUES, ...values }, at)
  if (!made.ok) throw new Error(made.kind)
  return made.product
}

describe('products', () => {
  it('stores a product with a prod_ id, its price in centimes and an unlimited stock as null', async () => {
    const p = await make()
    expect(p.id).toMatch(/^prod_[0-9A-Za-z]{16}$/)
    expect(await getProduct(t.db, p.id)).toMatchObject({
      price: 250_000,
      stock: null,
      soldCount: 0,
      active: true,
    })
    const none = await make({ sku: null, stock: 0 })
    expect((await getProduct(t.db, none.id))?.stock).toBe(0)
  })

  it('refuses a SKU another product has, whatever its case, on create and on update', async () => {
    const first = await make({ sku: 'TAJ-01' })
    expect(await createProduct(t.db, { ...VALUES, sku: 'taj-01' }, T0)).toEqual({
      ok: false,
      kind: 'sku_taken',
    })
    const other = await make({ sku: 'TAJ-02' })
    expect(await updateProduct(t.db, other.id, { sku: 'Taj-01' }, T0 + 1)).toEqual({
      ok: false,
      kind: 'sku_taken',
    })
    // Several products without a SKU, and a product keeping its own.
    await make({ sku: null })
    await make({ sku: null })
    expect((await updateProduct(t.db, first.id, { sku: 'taj-01' }, T0 + 2)).ok).toBe(true)
  })

  it('refuses a negative stock or a price of 0 in the database itself', () => {
    const insert = (price: number, stock: number | null) =>
      t.sqlite
        .prepare(
          "INSERT INTO products (id, name, price, stock, created_at, updated_at) VALUES (?, 'x', ?, ?, 0, 0)",
        )
        .run(`prod_${price}_${stock}`, price, stock)
    expect(() => insert(100, -1)).toThrow(/products_stock_not_negative/)
    expect(() => insert(0, null)).toThrow(/products_price_positive/)
    expect(() => insert(100, 0)).not.toThrow()
  })

  it('deletes a product never sold, and keeps one sold once', async () => {
    const unsold = await make({ sku: 'A-1' })
    const sold = await make({ sku: 'A-2' })
    t.sqlite.prepare('UPDATE products SET sold_count = 1 WHERE id = ?').run(sold.id)
    expect(await deleteProductIfUnsold(t.db, sold.id)).toBe(false)
    expect(await getProduct(t.db, sold.id)).not.toBeNull()
    expect(await deleteProductIfUnsold(t.db, unsold.id)).toBe(true)
    expect(await getProduct(t.db, unsold.id)).toBeNull()
  })

  it('lists newest first by cursor, filters on active and finds a part of the name or SKU', async () => {
    const a = await make({ name: 'Miel de jujubier', sku: 'MIEL-500' }, T0)
    const b = await make({ name: 'Huile d’olive', sku: 'HUI-1', active: false }, T0 + 1)
    const c = await make({ name: 'Dattes Deglet Nour', sku: null }, T0 + 2)
    const first = await listProducts(t.db, { limit: 2 })
    expect(first.items.map((p) => p.id)).toEqual([c.id, b.id])
    const cursor = first.nextCursor!.split('~')
    const second = await listProducts(t.db, {
      limit: 2,
      cursor: { createdAt: Number(cursor[0]), id: cursor[1]! },
    })
    expect(second.items.map((p) => p.id)).toEqual([a.id])
    expect(second.nextCursor).toBeNull()
    expect((await listProducts(t.db, { active: false })).items.map((p) => p.id)).toEqual([b.id])
    expect((await listProducts(t.db, { search: 'miel' })).items.map((p) => p.id)).toEqual([a.id])
    expect((await listProducts(t.db, { search: 'hui-' })).items.map((p) => p.id)).toEqual([b.id])
  })

  it('keeps an image while a product shows it, and removes it with the last one', async () => {
    const bytes = pngLogo()
    const image = {
      sha256: 'a'.repeat(64),
      contentType: 'image/png',
      bytes,
      width: 160,
      height: 64,
    }
    const one = await make({ sku: 'I-1' })
    const two = await make({ sku: 'I-2' })
    await setProductImage(t.db, one.id, image, T0)
    await setProductImage(t.db, two.id, image, T0)
    expect((await getProduct(t.db, one.id))?.imageHash).toBe(image.sha256)
    await setProductImage(t.db, one.id, null, T0 + 1)
    expect(await getProductImage(t.db, image.sha256)).not.toBeNull()
    expect(await deleteProductIfUnsold(t.db, two.id)).toBe(true)
    expect(await getProductImage(t.db, image.sha256)).toBeNull()
  })
})
