/**
 * `metadata` on links through the merchant API: set on create, merged on change (Stripe's rules:
 * "" removes a key, null removes them all), each rule refused naming the field, copied to every
 * payment made from the link as it was then, and in the payment object and the CSV exports.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { toPaymentObject } from '../../src/api/payments/objects.js'
import { getLinkById } from '../../src/data/links.js'
import { exportRow } from '../../src/runtime/node/cli/payments.js'
import { type Browser, signedIn, storePayment } from '../dashboard/helpers.js'
import { type Paylinks, startPaylinks } from '../support/harness.js'
import { postLink } from '../support/links.js'
import { api, payThroughCheckout, rowCount } from './helpers.js'

const T0 = Date.UTC(2026, 0, 15, 9, 0, 0)
let p: Paylinks
beforeEach(async () => {
  p = await startPaylinks({ clock: () => T0 })
})
afterEach(() => p.close())

const patch = (id: string, json: unknown) => api(p, 'PATCH', `/api/v1/links/${id}`, { json })
const storedMetadata = (table: 'links' | 'payments', id: string) =>
  (
    p.sqlite.sqlite.prepare(`SELECT metadata FROM ${table} WHERE id = ?`).get(id) as {
      metadata: string
    }
  ).metadata

describe('metadata on a link', () => {
  it('is kept on create, read back, and stored as JSON text; "" keys are left out', async () => {
    const link = await postLink(p, {
      title: 'Commande 1042',
      amount: 1500,
      metadata: { order_id: '1042', 'customer.id': 'C-381', note: 'تسليم مساءً', empty: '' },
    })
    const expected = { order_id: '1042', 'customer.id': 'C-381', note: 'تسليم مساءً' }
    expect(link.metadata).toEqual(expected)
    expect((await api(p, 'GET', `/api/v1/links/${link.id}`)).body.metadata).toEqual(expected)
    expect((await api(p, 'GET', '/api/v1/links')).body.data[0].metadata).toEqual(expected)
    expect(JSON.parse(storedMetadata('links', link.id))).toEqual(expected)
  })

  it('is {} on a link made without it, and null on create means none', async () => {
    const plain = await postLink(p, { title: 'Don', amount: 100 })
    expect(plain.metadata).toEqual({})
    const withNull = await postLink(p, { title: 'Don', amount: 100, metadata: null })
    expect(withNull.metadata).toEqual({})
    expect(storedMetadata('links', plain.id)).toBe('{}')
  })

  it('is merged on change: keys given are set, "" removes one, keys left out are kept', async () => {
    const link = await postLink(p, { title: 'Cours', amount: 1500, metadata: { a: '1', b: '2' } })
    const changed = await patch(link.id, { metadata: { b: '', c: '3', a: 'un' } })
    expect(changed.status).toBe(200)
    expect(changed.body.metadata).toEqual({ a: 'un', c: '3' })
    // A change that does not name metadata leaves it as it is.
    const retitled = await patch(link.id, { title: 'Cours du soir' })
    expect(retitled.body.metadata).toEqual({ a: 'un', c: '3' })
    // {} changes nothing; null removes every key.
    expect((await patch(link.id, { metadata: {} })).body.metadata).toEqual({ a: 'un', c: '3' })
    expect((await patch(link.id, { metadata: null })).body.metadata).toEqual({})
    expect(storedMetadata('links', link.id)).toBe('{}')
  })

  it('refuses a change that would leave more than 20 keys, and changes nothing', async () => {
    const twenty = Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`k${i}`, 'v']))
    const link = await postLink(p, { title: 'Plein', amount: 1500, metadata: twenty })
    const res = await patch(link.id, { title: 'Autre', metadata: { extra: 'x' } })
    expect(res.status).toBe(400)
    expect(res.body.error.fields).toEqual({ metadata: 'metadata must have at most 20 keys' })
    const after = (await api(p, 'GET', `/api/v1/links/${link.id}`)).body
    expect(after).toMatchObject({ title: 'Plein', metadata: twenty })
    // Replacing a key by another in one change fits.
    const swapped = await patch(link.id, { metadata: { k0: '', extra: 'x' } })
    expect(swapped.status).toBe(200)
    expect(Object.keys(swapped.body.metadata)).toHaveLength(20)
  })

  it('answers 404 for a change of metadata on a link that does not exist', async () => {
    const res = await patch('lnk_missing000000000', { metadata: { a: '1' } })
    expect(res.status).toBe(404)
  })
})

describe('metadata validation', () => {
  const tooMany = Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`k${i}`, 'v']))
  const cases: [string, unknown, string, string][] = [
    ['too many keys', tooMany, 'metadata', 'metadata must have at most 20 keys'],
    [
      'a key with a space',
      { 'order id': '1' },
      'metadata',
      'metadata keys must be made of letters, digits, _, . and - only',
    ],
    [
      'a key with a character outside [A-Za-z0-9_.-]',
      { 'commande/1': '1' },
      'metadata',
      'metadata keys must be made of letters, digits, _, . and - only',
    ],
    [
      'an empty key',
      { '': '1' },
      'metadata',
      'metadata keys must be made of letters, digits, _, . and - only',
    ],
    [
      'a key of 41 characters',
      { ['k'.repeat(41)]: '1' },
      'metadata',
      'metadata keys must be at most 40 characters',
    ],
    [
      'a value of 501 characters',
      { note: 'x'.repeat(501) },
      'metadata.note',
      'metadata.note must be at most 500 characters',
    ],
    ['a number value', { qty: 2 }, 'metadata.qty', 'metadata.qty must be text'],
    ['a null value', { qty: null }, 'metadata.qty', 'metadata.qty must be text'],
    ['an object value', { qty: { n: 1 } }, 'metadata.qty', 'metadata.qty must be text'],
    [
      'a value with a control character',
      { note: 'a\u0000b' },
      'metadata.note',
      'metadata.note must be plain text: no control characters and no invalid UTF-8',
    ],
    ['a list', ['a'], 'metadata', 'metadata must be a JSON object'],
    ['a text', 'order=1042', 'metadata', 'metadata must be a JSON object'],
  ]

  it.each(cases)(
    'refuses %s on create, naming the field, and creates nothing',
    async (_name, metadata, field, message) => {
      const links = rowCount(p, 'links')
      const res = await api(p, 'POST', '/api/v1/links', {
        json: { title: 'Cours', amount: 1500, metadata },
      })
      expect(res.status).toBe(400)
      expect(res.body.error.code).toBe('invalid_body')
      expect(res.body.error.fields).toEqual({ [field]: message })
      expect(rowCount(p, 'links')).toBe(links)
    },
  )

  it.each(cases)(
    'refuses %s on change, naming the field, and changes nothing',
    async (_name, metadata, field, message) => {
      const link = await postLink(p, { title: 'Cours', amount: 1500, metadata: { a: '1' } })
      const res = await patch(link.id, { metadata })
      expect(res.status).toBe(400)
      expect(res.body.error.fields).toEqual({ [field]: message })
      expect((await api(p, 'GET', `/api/v1/links/${link.id}`)).body.metadata).toEqual({ a: '1' })
    },
  )

  it('refuses a metadata key named __proto__ (which a schema would drop without a word), however written', async () => {
    const links = rowCount(p, 'links')
    for (const raw of [
      '{"title":"Cours","amount":1500,"metadata":{"__proto__":"x","a":"1"}}',
      '{"title":"Cours","amount":1500,"metadata":{"\\u005f_proto__":"x"}}',
    ]) {
      const res = await api(p, 'POST', '/api/v1/links', {
        raw,
        headers: { 'content-type': 'application/json' },
      })
      expect(res.status).toBe(400)
      expect(res.body.error).toMatchObject({
        code: 'invalid_body',
        fields: { metadata: 'metadata may not hold a key named __proto__' },
      })
    }
    expect(rowCount(p, 'links')).toBe(links)
  })

  it('accepts the limits themselves: 20 keys of 40 characters with values of 500', async () => {
    const full = Object.fromEntries(
      Array.from({ length: 20 }, (_, i) => [
        `${String(i).padStart(2, '0')}${'k'.repeat(38)}`,
        'v'.repeat(500),
      ]),
    )
    const link = await postLink(p, { title: 'Limites', amount: 1500, metadata: full })
    expect(link.metadata).toEqual(full)
  })
})

describe('metadata on payments', () => {
  it("is the link's as it was when the payment started, whatever the link says later", async () => {
    const link = await postLink(p, {
      title: 'Commande',
      amount: 1500,
      metadata: { order_id: '1042', channel: 'web' },
    })
    const { payment } = await payThroughCheckout(p, link.slug)
    expect(JSON.parse(storedMetadata('payments', payment.id))).toEqual({
      order_id: '1042',
      channel: 'web',
    })
    await patch(link.id, { metadata: { order_id: '', channel: 'shop', extra: 'x' } })
    const read = await api(p, 'GET', `/api/v1/payments/${payment.id}`)
    expect(read.body).toMatchObject({
      metadata: { order_id: '1042', channel: 'web' },
      checkout_id: null,
      ref: null,
    })
    // A payment started after the change carries the new metadata.
    const { payment: later } = await payThroughCheckout(p, link.slug)
    const list = await api(p, 'GET', '/api/v1/payments')
    const byId = new Map(list.body.data.map((d: { id: string }) => [d.id, d]))
    expect(byId.get(later.id)).toMatchObject({ metadata: { channel: 'shop', extra: 'x' } })
    expect(byId.get(payment.id)).toMatchObject({ metadata: { order_id: '1042', channel: 'web' } })
  })

  it('is {} with checkout_id null on a payment of a link without metadata, and carries ref', async () => {
    const link = await postLink(p, { title: 'Don', amount: 100 })
    const { payment } = await payThroughCheckout(p, link.slug, { ref: 'ELEVE-42' })
    const read = await api(p, 'GET', `/api/v1/payments/${payment.id}`)
    expect(read.body).toMatchObject({ metadata: {}, checkout_id: null, ref: 'ELEVE-42' })
  })
})

describe('metadata in the CSV exports', () => {
  let browser: Browser
  beforeEach(async () => {
    browser = await signedIn(p)
  })

  const csvRows = async () =>
    (await (await browser.get('/dashboard/payments.csv')).text())
      .replace(/^\ufeff/, '')
      .trimEnd()
      .split('\r\n')

  it('is a column of the dashboard export (the selling columns after it), as JSON text quoted like any cell', async () => {
    const link = await postLink(p, {
      title: 'Commande',
      amount: 1500,
      metadata: { order_id: '1042', note: 'say "hi", then =1+1' },
    })
    const plain = await postLink(p, { title: 'Don', amount: 100 })
    const withMetadata = await storePayment(p, await linkRow(link.id), { at: T0 })
    await storePayment(p, await linkRow(plain.id), { at: T0 - 1000 })
    const [header, first, second] = await csvRows()
    const columns = header!.split(',')
    const selling = ['subtotal', 'discount', 'promo_code', 'fee', 'line_items', 'custom_fields']
    expect(columns.slice(columns.indexOf('metadata') + 1).every((c) => selling.includes(c))).toBe(
      true,
    )
    expect(first).toContain(withMetadata.id)
    // JSON text, quoted (it holds commas and quotes) with its quotes doubled.
    expect(first).toContain(',"{""order_id"":""1042"",""note"":""say \\""hi\\"", then =1+1""}",')
    expect(second).toContain(',{},')
  })

  it('is the last column of the command line export, guarded against formulas', async () => {
    const link = await postLink(p, {
      title: 'Commande',
      amount: 1500,
      metadata: { a: '1', b: ',=1+1' },
    })
    const payment = await storePayment(p, await linkRow(link.id))
    const line = exportRow(toPaymentObject(payment, { publicUrl: 'https://pay.example.dz' }))
    expect(line.endsWith(`,"{""a"":""1"",""b"":"",'=1+1""}"\r\n`)).toBe(true)
  })
})

async function linkRow(id: string) {
  const link = await getLinkById(p.deps.db, id)
  if (!link) throw new Error('no link')
  return link
}
