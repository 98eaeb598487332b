import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createLink } from '../../src/data/links.js'
import { type Paylinks, startPaylinks } from '../support/harness.js'
import { linkValues, postLink } from '../support/links.js'
import { api, payThroughCheckout, rowCount } from './helpers.js'

const T0 = Date.UTC(2026, 0, 15, 9, 0, 0)
let now = T0
let p: Paylinks
beforeEach(async () => {
  now = T0
  p = await startPaylinks({ clock: () => now })
})
afterEach(() => p.close())

const storedLink = (id: string) =>
  p.sqlite.sqlite.prepare('SELECT * FROM links WHERE id = ?').get(id) as Record<string, unknown>

describe('creating links', () => {
  it('creates a fixed-amount link: 201, Location, the link object, and exact centimes inside', async () => {
    const res = await api(p, 'POST', '/api/v1/links', {
      json: {
        title: 'Cours de soutien',
        description: 'Quatre séances',
        amount: 1299.5,
        max_payments: 1,
        expires_at: '2026-06-30T23:59:00+01:00',
        language: 'fr',
        memo: 'Soutien',
        success_message: 'Merci !',
      },
    })
    expect(res.status).toBe(201)
    const link = res.body
    expect(res.headers.get('location')).toBe(`${p.url}/api/v1/links/${link.id}`)
    expect(res.headers.get('content-type')).toMatch(/^application\/json/)
    expect(link).toMatchObject({
      title: 'Cours de soutien',
      description: 'Quatre séances',
      amount: 1299.5,
      amount_min: null,
      amount_max: null,
      invoice_id: null,
      max_payments: 1,
      expires_at: '2026-06-30T22:59:00.000Z',
      language: 'fr',
      memo: 'Soutien',
      success_message: 'Merci !',
      active: true,
      status: 'active',
      paid_count: 0,
      paid_total: 0,
      created_at: new Date(T0).toISOString(),
    })
    expect(link.id).toMatch(/^lnk_[0-9A-Za-z]{16}$/)
    expect(link.slug).toMatch(/^[0-9A-Za-z]{12}$/)
    expect(link.url).toBe(`${p.url}/l/${link.slug}`)
    expect(link.qr_svg_url).toBe(`${link.url}/qr.svg`)
    expect(link.qr_png_url).toBe(`${link.url}/qr.png`)
    expect(link.poster_url).toBe(`${link.url}/poster`)
    expect(storedLink(link.id)).toMatchObject({
      amount: 129950,
      expires_at: Date.parse('2026-06-30T22:59:00Z'),
    })
    const again = await api(p, 'GET', new URL(res.headers.get('location')!).pathname)
    expect(again.status).toBe(200)
    expect(again.body).toEqual(link)
  })

  it('keeps amounts exact through the round trip (0.01, 1299.99, 100000000)', async () => {
    for (const [amount, centimes] of [
      [1299.99, 129999],
      [50.01, 5001],
      [100_000_000, 10_000_000_000],
    ] as const) {
      const link = await postLink(p, { title: 'Exact', amount })
      expect(link.amount).toBe(amount)
      expect(storedLink(link.id).amount).toBe(centimes)
    }
  })

  it('creates an open-amount link from amount_min and amount_max', async () => {
    const link = await postLink(p, { title: 'Don', amount_min: 100, amount_max: 50000.5 })
    expect(link).toMatchObject({ amount: null, amount_min: 100, amount_max: 50000.5 })
    expect(storedLink(link.id)).toMatchObject({ amount_min: 10000, amount_max: 5000050 })
  })

  it('creates an open-amount link whose minimum defaults to the 50 DZD the card network needs', async () => {
    const link = await postLink(p, { title: 'Don libre', amount_max: 1000 })
    expect(link).toMatchObject({ amount: null, amount_min: 50, amount_max: 1000 })
  })

  it('creates a link on an existing gateway invoice from invoice_id and amount', async () => {
    const link = await postLink(p, {
      title: 'Facture F-17',
      invoice_id: 'inv_8c1d2e',
      amount: 4500,
    })
    expect(link).toMatchObject({ invoice_id: 'inv_8c1d2e', amount: 4500, invoice_items: null })
    expect((await p.simulator.inspect()).invoices).toHaveLength(0)
  })

  it('creates the gateway invoice for invoice_items and links to it, with their exact total', async () => {
    const link = await postLink(p, {
      title: 'Commande 1042',
      invoice_items: [
        { description: 'Livre', quantity: 2, unit_price: 1299.5 },
        { description: 'Livraison', quantity: 1, unit_price: 400 },
      ],
    })
    expect(link.amount).toBe(2999)
    expect(link.invoice_items).toEqual([
      { description: 'Livre', quantity: 2, unit_price: 1299.5 },
      { description: 'Livraison', quantity: 1, unit_price: 400 },
    ])
    const { invoices } = await p.simulator.inspect()
    expect(invoices).toHaveLength(1)
    expect(invoices[0]).toMatchObject({ id: link.invoice_id })
    expect(JSON.stringify(invoices[0])).toContain('Livraison')
    expect(storedLink(link.id)).toMatchObject({ amount: 299900, invoice_id: link.invoice_id })
  })

  it('makes an invoice link single use unless max_payments says otherwise', async () => {
    const items = [{ description: 'Livre', quantity: 1, unit_price: 1299.5 }]
    expect(await postLink(p, { title: 'Commande 7', invoice_items: items })).toMatchObject({
      max_payments: 1,
    })
    expect(await postLink(p, { title: 'F-18', invoice_id: 'inv_18', amount: 900 })).toMatchObject({
      max_payments: 1,
    })
    const open = await postLink(p, { title: 'Club', invoice_items: items, max_payments: null })
    expect(open.max_payments).toBeNull()
    const three = await postLink(p, {
      title: 'F-19',
      invoice_id: 'inv_19',
      amount: 900,
      max_payments: 3,
    })
    expect(three.max_payments).toBe(3)
    expect((await postLink(p, { title: 'Don', amount: 900 })).max_payments).toBeNull()
  })

  it('answers 502 and stores nothing when the gateway does not create the invoice', async () => {
    p.simulator.faults.set({ endpoints: { 'invoices/create': { status5xx: 503 } } })
    const res = await api(p, 'POST', '/api/v1/links', {
      json: {
        title: 'Commande',
        invoice_items: [{ description: 'Livre', quantity: 1, unit_price: 100 }],
      },
    })
    expect(res.status).toBe(502)
    expect(res.body.error.code).toBe('gateway_error')
    expect(rowCount(p, 'links')).toBe(0)
  })

  it('falls back to the configured default language', async () => {
    const link = await postLink(p, { title: 'Sans langue', amount: 100 })
    expect(link.language).toBe(p.deps.config.defaultLanguage)
  })
})

describe('reading and changing links', () => {
  it('answers 404 with the error shape for an unknown link id', async () => {
    for (const method of ['GET', 'DELETE'] as const) {
      const res = await api(p, method, '/api/v1/links/lnk_doesnotexist0000')
      expect(res.status).toBe(404)
      expect(res.body).toEqual({ error: { code: 'not_found', message: 'No link has this id.' } })
    }
    const patch = await api(p, 'PATCH', '/api/v1/links/lnk_doesnotexist0000', {
      json: { title: 'x' },
    })
    expect(patch.status).toBe(404)
  })

  it('changes only the fields a PATCH names and keeps the others', async () => {
    const link = await postLink(p, { title: 'Cours', amount: 1500, memo: 'Cours mars' })
    now += 60_000
    const res = await api(p, 'PATCH', `/api/v1/links/${link.id}`, {
      json: { title: 'Cours d’avril', memo: null },
    })
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({
      title: 'Cours d’avril',
      memo: null,
      amount: 1500,
      slug: link.slug,
    })
    expect(res.body.updated_at).toBe(new Date(now).toISOString())
    expect(res.body.created_at).toBe(link.created_at)
  })

  it('switches a link off and on with active, and shows its status', async () => {
    const link = await postLink(p, { title: 'Cours', amount: 1500 })
    const off = await api(p, 'PATCH', `/api/v1/links/${link.id}`, {
      json: { active: false, inactive_message: 'Complet' },
    })
    expect(off.body).toMatchObject({
      active: false,
      status: 'inactive',
      inactive_message: 'Complet',
    })
    const on = await api(p, 'PATCH', `/api/v1/links/${link.id}`, { json: { active: true } })
    expect(on.body).toMatchObject({ active: true, status: 'active' })
  })

  it('turns an open link into a fixed one when a PATCH gives amount', async () => {
    const link = await postLink(p, { title: 'Don', amount_min: 100, amount_max: 500 })
    const res = await api(p, 'PATCH', `/api/v1/links/${link.id}`, { json: { amount: 250.75 } })
    expect(res.body).toMatchObject({ amount: 250.75, amount_min: null, amount_max: null })
    expect(storedLink(link.id)).toMatchObject({ amount: 25075, amount_min: null })
  })

  it('creates a new gateway invoice when a PATCH gives new invoice_items', async () => {
    const link = await postLink(p, { title: 'Cours', amount: 1500 })
    const res = await api(p, 'PATCH', `/api/v1/links/${link.id}`, {
      json: { invoice_items: [{ description: 'Séance', quantity: 3, unit_price: 500 }] },
    })
    expect(res.status).toBe(200)
    expect(res.body.amount).toBe(1500)
    const { invoices } = await p.simulator.inspect()
    expect(invoices.map((i) => i.id)).toEqual([res.body.invoice_id])
  })

  it('shows expired once the clock passes expires_at', async () => {
    const link = await postLink(p, {
      title: 'Bref',
      amount: 100,
      expires_at: '2026-01-15T10:00:00Z',
    })
    now = Date.UTC(2026, 0, 15, 10, 0, 1)
    expect((await api(p, 'GET', `/api/v1/links/${link.id}`)).body.status).toBe('expired')
  })
})

describe('listing links', () => {
  it('pages newest first with limit, has_more and next_cursor, without gaps or repeats', async () => {
    const ids: string[] = []
    for (let i = 0; i < 5; i++) {
      ids.unshift((await postLink(p, { title: `Lien ${i}`, amount: 100 + i })).id)
      now += 1000
    }
    const seen: string[] = []
    let cursor: string | null = null
    let pages = 0
    do {
      const res = await api(p, 'GET', `/api/v1/links?limit=2${cursor ? `&cursor=${cursor}` : ''}`)
      expect(res.status).toBe(200)
      expect(res.body.data.length).toBeLessThanOrEqual(2)
      expect(res.body.has_more).toBe(res.body.next_cursor !== null)
      seen.push(...res.body.data.map((l: { id: string }) => l.id))
      cursor = res.body.next_cursor
      pages++
    } while (cursor)
    expect(pages).toBe(3)
    expect(seen).toEqual(ids)
  })

  it('filters on the on/off switch with active=true|false', async () => {
    const on = await postLink(p, { title: 'On', amount: 100 })
    const off = await postLink(p, { title: 'Off', amount: 100, active: false })
    const onlyOff = await api(p, 'GET', '/api/v1/links?active=false')
    expect(onlyOff.body.data.map((l: { id: string }) => l.id)).toEqual([off.id])
    const onlyOn = await api(p, 'GET', '/api/v1/links?active=true')
    expect(onlyOn.body.data.map((l: { id: string }) => l.id)).toEqual([on.id])
  })

  it('filters on where links were made with source=dashboard|api|till, all of them without it', async () => {
    const viaApi = await postLink(p, { title: 'API', amount: 100 })
    now += 1000
    const sale = await createLink(p.deps.db, linkValues({ title: 'Vente' }), now, {
      source: 'till',
      createdBy: 'admin token',
    })
    now += 1000
    const older = await createLink(p.deps.db, linkValues({ title: 'Ancien' }), now)
    p.sqlite.sqlite.prepare('UPDATE links SET source = NULL WHERE id = ?').run(older.id)
    const ids = async (query: string) =>
      (await api(p, 'GET', `/api/v1/links${query}`)).body.data.map((l: { id: string }) => l.id)
    expect(await ids('?source=till')).toEqual([sale.id])
    expect(await ids('?source=api')).toEqual([viaApi.id])
    expect(await ids('?source=dashboard')).toEqual([older.id])
    expect(await ids('')).toEqual([older.id, sale.id, viaApi.id])
    const wrong = await api(p, 'GET', '/api/v1/links?source=shop')
    expect(wrong.status).toBe(400)
    expect(wrong.body.error.code).toBe('invalid_query')
    expect(wrong.body.error.fields.source).toContain('must be one of dashboard, api, till')
  })

  it('shows what each link collected: paid_count and paid_total', async () => {
    const link = await postLink(p, { title: 'Cours', amount: 1299.5 })
    const { tx } = await payThroughCheckout(p, link.slug)
    await p.simulator.completePayment(tx.cibTransactionId, 'approved')
    await p.settle()
    const res = await api(p, 'GET', '/api/v1/links')
    expect(res.body.data[0]).toMatchObject({ id: link.id, paid_count: 1, paid_total: 1299.5 })
  })
})

describe('deleting links', () => {
  it('deletes a link no payment was ever started on', async () => {
    const link = await postLink(p, { title: 'Erreur', amount: 100 })
    const res = await api(p, 'DELETE', `/api/v1/links/${link.id}`)
    expect(res.status).toBe(204)
    expect(res.body).toBeNull()
    expect((await api(p, 'GET', `/api/v1/links/${link.id}`)).status).toBe(404)
  })

  it('keeps a link with payments, answering 409 link_has_payments', async () => {
    const link = await postLink(p, { title: 'Cours', amount: 1500 })
    await payThroughCheckout(p, link.slug)
    const res = await api(p, 'DELETE', `/api/v1/links/${link.id}`)
    expect(res.status).toBe(409)
    expect(res.body.error.code).toBe('link_has_payments')
    expect(res.body.error.message).toMatch(/"active": false/)
    expect((await api(p, 'GET', `/api/v1/links/${link.id}`)).status).toBe(200)
  })
})
