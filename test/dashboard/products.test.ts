/**
 * The catalogue in the dashboard: the list (search, state filter, pages), a new product, errors
 * beside their fields in the page's language, a SKU taken, editing only what changed, archiving,
 * deleting a product never sold and keeping a sold one, and the image: a checked PNG/JPEG/WebP
 * stored and served at its hash's address, anything else refused beside its field.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { auditLog, productImages, products } from '../../db/schema.js'
import { DASH_TABLES } from '../../src/dashboard/messages.js'
import { createProduct, getProduct } from '../../src/data/products.js'
import { type Paylinks, startPaylinks } from '../support/harness.js'
import { jpegWithScan, pngLogo } from '../support/images.js'
import { type Browser, csrfOf, signedIn } from './helpers.js'

let p: Paylinks
let owner: Browser
beforeEach(async () => {
  p = await startPaylinks()
  owner = await signedIn(p)
})
afterEach(() => p.close())

const LIST = '/dashboard/products'

const unescapeHtml = (s: string) =>
  s
    .replace(/&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&')

/** The text of a field's error on a page. */
const errorOf = (html: string, id: string) =>
  unescapeHtml(new RegExp(`id="${id}-err"[^>]*>([\\s\\S]*?)</p>`).exec(html)?.[1] ?? '')

async function make(values: Partial<Parameters<typeof createProduct>[1]> = {}, at = Date.now()) {
  const made = await createProduct(
    p.deps.db,
    {
      name: 'Tajine en terre cuite',
      description: null,
      price: 250_000,
      stock: 12,
      sku: null,
      active: true,
      ...values,
    },
    at,
  )
  if (!made.ok) throw new Error(made.kind)
  return made.product
}

async function upload(id: string, bytes: Uint8Array, name: string, type: string, b = owner) {
  const form = new FormData()
  form.set('_csrf', await b.formToken(`${LIST}/${id}`))
  form.set('image', new Blob([bytes as Uint8Array<ArrayBuffer>], { type }), name)
  return b.request(`${LIST}/${id}/image`, { method: 'POST', body: form })
}

describe('products in the dashboard', () => {
  it('creates a product from the form and lists it with its price, stock, SKU and state', async () => {
    const res = await owner.submit(`${LIST}/new`, LIST, {
      name: 'Miel de jujubier',
      description: 'Pot de 500 g',
      price: '1 800,50',
      stock: '',
      sku: 'MIEL-500',
    })
    expect(res.status).toBe(303)
    const id = /\/dashboard\/products\/(prod_\w+)\?done=created/.exec(
      res.headers.get('location') ?? '',
    )?.[1]
    expect(id).toBeTruthy()
    expect(await getProduct(p.deps.db, id!)).toMatchObject({
      name: 'Miel de jujubier',
      description: 'Pot de 500 g',
      price: 180_050,
      stock: null,
      sku: 'MIEL-500',
      active: true,
    })
    const list = await (await owner.get(LIST)).text()
    expect(list).toContain('href="/dashboard/products"')
    expect(list).toContain('Miel de jujubier')
    expect(list).toContain('MIEL-500')
    expect(list).toContain(DASH_TABLES.en.prUnlimited)
    expect(list).toContain(DASH_TABLES.en.prOnSale)
  })

  for (const lang of ['ar', 'fr', 'en'] as const) {
    it(`names each bad field in ${lang} and stores nothing`, async () => {
      const words = DASH_TABLES[lang]
      const _csrf = await owner.formToken(`${LIST}/new`)
      const res = await owner.request(LIST, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'accept-language': lang },
        body: new URLSearchParams({ _csrf, name: '', price: 'beaucoup', stock: '-2', sku: 'a b' }),
      })
      expect(res.status).toBe(400)
      const html = await res.text()
      expect(html).toContain(`lang="${lang}"`)
      expect(errorOf(html, 'name')).toBe(words.errRequired)
      expect(errorOf(html, 'price')).toBe(words.errAmountText)
      expect(errorOf(html, 'stock')).toBe(words.errWhole)
      expect(errorOf(html, 'sku')).toBe(words.prErrSku)
      expect(await p.deps.db.select().from(products)).toEqual([])
    })
  }

  it('says beside the SKU that another product has it, whatever its case', async () => {
    await make({ sku: 'TAJ-30' })
    const res = await owner.submit(`${LIST}/new`, LIST, {
      name: 'Autre tajine',
      price: '2000',
      sku: 'taj-30',
    })
    expect(res.status).toBe(400)
    expect(errorOf(await res.text(), 'sku')).toBe(DASH_TABLES.en.prErrSkuTaken)
  })

  it('saves only the fields changed, archives, puts back on sale, in the audit log', async () => {
    const product = await make()
    const page = `${LIST}/${product.id}`
    const res = await owner.submit(page, page, {
      name: product.name,
      description: '',
      price: '2700',
      stock: '12',
      sku: '',
    })
    expect(res.status).toBe(303)
    expect((await getProduct(p.deps.db, product.id))?.price).toBe(270_000)
    expect((await owner.submit(page, `${page}/archive`)).status).toBe(303)
    expect((await getProduct(p.deps.db, product.id))?.active).toBe(false)
    const archived = await (await owner.get(`${LIST}?status=archived`)).text()
    expect(archived).toContain(`data-product-id="${product.id}"`)
    expect(await (await owner.get(`${LIST}?status=active`)).text()).not.toContain(product.id)
    expect((await owner.submit(page, `${page}/unarchive`)).status).toBe(303)
    const entries = await p.deps.db.select().from(auditLog)
    const mine = entries.filter((e) => e.targetKind === 'product')
    expect(mine.map((e) => e.action)).toEqual([
      'product_updated',
      'product_archived',
      'product_unarchived',
    ])
    expect(mine[0]?.detail).toEqual({ name: product.name, fields: ['price'] })
  })

  it('deletes a product never sold, and keeps a sold one (no delete button, 409 if posted)', async () => {
    const unsold = await make({ name: 'Jamais vendu' })
    const sold = await make({ name: 'Déjà vendu' })
    p.sqlite.sqlite.prepare('UPDATE products SET sold_count = 1 WHERE id = ?').run(sold.id)
    const soldPage = await (await owner.get(`${LIST}/${sold.id}`)).text()
    expect(soldPage).not.toContain(`action="${LIST}/${sold.id}/delete"`)
    expect(soldPage).toContain(DASH_TABLES.en.prSoldNote)
    const refused = await owner.post(`${LIST}/${sold.id}/delete`, { _csrf: csrfOf(soldPage) })
    expect(refused.status).toBe(409)
    expect(unescapeHtml(await refused.text())).toContain(DASH_TABLES.en.prCannotDelete)
    expect(await getProduct(p.deps.db, sold.id)).not.toBeNull()
    const unsoldPage = `${LIST}/${unsold.id}`
    expect(await (await owner.get(unsoldPage)).text()).toContain(`action="${unsoldPage}/delete"`)
    const gone = await owner.submit(unsoldPage, `${unsoldPage}/delete`)
    expect(gone.headers.get('location')).toBe(`${LIST}?done=deleted`)
    expect(await getProduct(p.deps.db, unsold.id)).toBeNull()
    expect((await owner.get(unsoldPage)).status).toBe(404)
  })

  it('searches by name or SKU and pages through the list', async () => {
    for (let i = 0; i < 52; i++) await make({ name: `Article ${i}`, sku: `ART-${i}` }, 1000 + i)
    await make({ name: 'Couscous fin', sku: 'CSC-1' }, 5000)
    const first = await (await owner.get(LIST)).text()
    expect(first.match(/data-product-id=/g)).toHaveLength(50)
    const next = /href="(\/dashboard\/products\?cursor=[^"]+)" rel="next"/.exec(first)?.[1]
    expect(next).toBeTruthy()
    const second = await (await owner.get(unescapeHtml(next!))).text()
    expect(second.match(/data-product-id=/g)).toHaveLength(3)
    const found = await (await owner.get(`${LIST}?q=couscous`)).text()
    expect(found.match(/data-product-id=/g)).toHaveLength(1)
    const bySku = await (await owner.get(`${LIST}?q=csc-1`)).text()
    expect(bySku).toContain('Couscous fin')
    const none = await (await owner.get(`${LIST}?q=zzz`)).text()
    expect(none).toContain(DASH_TABLES.en.prSearchNone)
    expect((await owner.get(`${LIST}?status=sold`)).status).toBe(400)
  })

  it('stores a checked image, shows it, serves it at its hash for a year, and removes it', async () => {
    const product = await make()
    const res = await upload(product.id, pngLogo(), 'photo.png', 'image/png')
    expect(res.status).toBe(303)
    const row = await getProduct(p.deps.db, product.id)
    expect(row).toMatchObject({ imageType: 'image/png', imageWidth: 160, imageHeight: 64 })
    const src = `/products/images/${row?.imageHash}.png`
    const page = await (await owner.get(`${LIST}/${product.id}`)).text()
    expect(page).toContain(`src="${src}"`)
    expect(await (await owner.get(LIST)).text()).toContain(`src="${src}"`)
    const served = await p.app.request(src)
    expect(served.status).toBe(200)
    expect(served.headers.get('content-type')).toBe('image/png')
    expect(served.headers.get('cache-control')).toBe('public, max-age=31536000, immutable')
    expect(served.headers.get('x-content-type-options')).toBe('nosniff')
    expect(new Uint8Array(await served.arrayBuffer())).toEqual(pngLogo())
    expect((await p.app.request(`/products/images/${row?.imageHash}.jpg`)).status).toBe(404)
    const api = await p.app.request(`/api/v1/products/${product.id}`, {
      headers: { 'x-api-key': p.deps.config.adminToken ?? '' },
    })
    expect((await api.json()).image_url).toBe(`${p.url}${src}`)
    // A JPEG replaces it; the PNG's bytes go with it.
    expect((await upload(product.id, jpegWithScan(), 'p.jpg', 'image/jpeg')).status).toBe(303)
    const images = await p.deps.db.select().from(productImages)
    expect(images.map((i) => i.contentType)).toEqual(['image/jpeg'])
    const page2 = `${LIST}/${product.id}`
    expect((await owner.submit(page2, `${page2}/image/delete`)).status).toBe(303)
    expect(await p.deps.db.select().from(productImages)).toEqual([])
    expect((await getProduct(p.deps.db, product.id))?.imageHash).toBeNull()
  })

  const enc = (s: string) => new TextEncoder().encode(s)
  const BAD: [string, Uint8Array, string, string, keyof typeof DASH_TABLES.en][] = [
    [
      'an SVG',
      enc('<svg xmlns="http://www.w3.org/2000/svg"/>'),
      'x.svg',
      'image/svg+xml',
      'stErrLogoType',
    ],
    [
      'HTML named .png',
      enc('<html><script>alert(1)</script>'),
      'x.png',
      'image/png',
      'stErrLogoType',
    ],
    ['a cut PNG', pngLogo().subarray(0, 40), 'x.png', 'image/png', 'stErrLogoBroken'],
    ['an empty file', new Uint8Array(0), 'x.png', 'image/png', 'stErrLogoEmpty'],
    [
      'a PNG of 300 KB',
      pngLogo(160, 64, [1, 2, 3], 300 * 1024),
      'x.png',
      'image/png',
      'stErrLogoTooLarge',
    ],
  ]
  for (const [what, bytes, name, type, key] of BAD) {
    it(`refuses ${what} beside the image field, storing nothing`, async () => {
      const product = await make()
      const res = await upload(product.id, bytes, name, type)
      expect(res.status).toBe(400)
      const html = await res.text()
      expect(errorOf(html, 'image-file')).toBe(DASH_TABLES.en[key])
      expect(await p.deps.db.select().from(productImages)).toEqual([])
      expect((await getProduct(p.deps.db, product.id))?.imageHash).toBeNull()
    })
  }

  it("refuses a phone's 3 MB photo beside the image field in French (413), storing nothing", async () => {
    const product = await make()
    const photo = new Uint8Array(3 * 1024 * 1024).fill(0x5a)
    photo.set([0xff, 0xd8, 0xff, 0xe1])
    const form = new FormData()
    form.set('_csrf', await owner.formToken(`${LIST}/${product.id}`))
    form.set('image', new Blob([photo], { type: 'image/jpeg' }), 'IMG_2026.jpg')
    const res = await owner.request(`${LIST}/${product.id}/image`, {
      method: 'POST',
      body: form,
      headers: { 'accept-language': 'fr' },
    })
    expect(res.status).toBe(413)
    const html = await res.text()
    expect(html).toContain('lang="fr"')
    expect(errorOf(html, 'image-file')).toBe(DASH_TABLES.fr.stErrLogoTooLarge)
    expect(await p.deps.db.select().from(productImages)).toEqual([])
  })
})
