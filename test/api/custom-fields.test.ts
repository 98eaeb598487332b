/**
 * `custom_fields` in the merchant API: taken on links (create, change, clear) and checkouts (kept
 * on the checkout's link), returned by the link object, and each bad definition refused with 400
 * naming its field (`custom_fields[1].options`), nothing stored.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { linkObject } from '../../src/api/links/objects.js'
import { type Paylinks, startPaylinks } from '../support/harness.js'
import { api, rowCount } from './helpers.js'

let p: Paylinks
beforeEach(async () => {
  p = await startPaylinks()
})
afterEach(() => p.close())

const FIELDS = [
  { key: 'wilaya', label: 'Wilaya', type: 'wilaya', required: true },
  { key: 'size', label: 'Taille', type: 'select', options: ['S', 'M'] },
]

const stored = (id: string) =>
  JSON.parse(
    (
      p.sqlite.sqlite.prepare('SELECT custom_fields FROM links WHERE id = ?').get(id) as {
        custom_fields: string
      }
    ).custom_fields ?? 'null',
  )

describe('custom_fields on links', () => {
  it('are stored and returned with their defaults (options null, required false)', async () => {
    const res = await api(p, 'POST', '/api/v1/links', {
      json: { title: 'T-shirt', amount: 2500, custom_fields: FIELDS },
    })
    expect(res.status, JSON.stringify(res.body)).toBe(201)
    expect(linkObject.strict().parse(res.body)).toEqual(res.body)
    const expected = [
      { key: 'wilaya', label: 'Wilaya', type: 'wilaya', options: null, required: true },
      { key: 'size', label: 'Taille', type: 'select', options: ['S', 'M'], required: false },
    ]
    expect(res.body.custom_fields).toEqual(expected)
    expect(stored(res.body.id)).toEqual(expected)
    const read = await api(p, 'GET', `/api/v1/links/${res.body.id}`)
    expect(read.body.custom_fields).toEqual(expected)
  })

  it('are [] on a link without them, and changed or cleared by PATCH', async () => {
    const res = await api(p, 'POST', '/api/v1/links', { json: { title: 'Don', amount: 900 } })
    expect(res.body.custom_fields).toEqual([])
    const id = res.body.id
    const set = await api(p, 'PATCH', `/api/v1/links/${id}`, {
      json: { custom_fields: [{ key: 'note', label: 'Note', type: 'text' }] },
    })
    expect(set.status).toBe(200)
    expect(set.body.custom_fields).toEqual([
      { key: 'note', label: 'Note', type: 'text', options: null, required: false },
    ])
    for (const none of [[], null]) {
      const cleared = await api(p, 'PATCH', `/api/v1/links/${id}`, {
        json: { custom_fields: none },
      })
      expect(cleared.body.custom_fields).toEqual([])
      expect(stored(id)).toBeNull()
    }
  })

  it('refuses bad definitions with 400, naming each field, storing nothing', async () => {
    const cases: Array<[unknown, Record<string, string>]> = [
      [
        [
          { key: 'Wilaya', label: 'W', type: 'wilaya' },
          { key: 'size', label: 'Taille', type: 'select' },
          { key: 'size', label: 'Encore', type: 'text', options: ['a'] },
          { key: 'x', label: '', type: 'colour' },
        ],
        {
          'custom_fields[0].key':
            'custom_fields[0].key must be 1 to 40 lower-case letters, digits or _',
          'custom_fields[3].label': 'custom_fields[3].label must not be empty',
          'custom_fields[3].type':
            'custom_fields[3].type must be one of text, number, select, wilaya, address',
        },
      ],
      [
        [
          { key: 'size', label: 'Taille', type: 'select' },
          { key: 'size', label: 'Encore', type: 'text', options: ['a'] },
          { key: 'colour', label: 'Couleur', type: 'select', options: ['rouge', 'rouge'] },
        ],
        {
          'custom_fields[0].options': 'custom_fields[0].options is required for a select field',
          'custom_fields[1].key': 'custom_fields[1].key is the key of another field',
          'custom_fields[1].options': 'custom_fields[1].options is only for a select field',
          'custom_fields[2].options':
            'custom_fields[2].options must not list the same option twice',
        },
      ],
      [
        Array.from({ length: 6 }, (_, i) => ({ key: `k${i}`, label: 'L', type: 'text' })),
        { custom_fields: 'custom_fields must list at most 5 items' },
      ],
      [
        [{ key: 'k', label: 'x'.repeat(81), type: 'text', required: 'yes' }],
        {
          'custom_fields[0].label': 'custom_fields[0].label must be at most 80 characters',
          'custom_fields[0].required': 'custom_fields[0].required must be true or false',
        },
      ],
      [
        [
          {
            key: 'k',
            label: 'L',
            type: 'select',
            options: Array.from({ length: 21 }, (_, i) => `o${i}`),
          },
        ],
        { 'custom_fields[0].options': 'custom_fields[0].options must list at most 20 items' },
      ],
      [
        [{ key: 'k', label: 'L\u0007', type: 'text', extra: 1 }],
        {
          'custom_fields[0].label':
            'custom_fields[0].label must be plain text: no control characters and no invalid UTF-8',
          'custom_fields[0].extra': 'custom_fields[0].extra is not a field of a link',
        },
      ],
      ['wilaya', { custom_fields: 'custom_fields must be a list of items' }],
    ]
    for (const [customFields, fields] of cases) {
      const res = await api(p, 'POST', '/api/v1/links', {
        json: { title: 'T', amount: 900, custom_fields: customFields },
      })
      expect(res.status, JSON.stringify(customFields)).toBe(400)
      expect(res.body.error.fields, JSON.stringify(customFields)).toEqual(fields)
    }
    expect(rowCount(p, 'links')).toBe(0)
  })
})

describe('custom_fields on checkouts', () => {
  it('are kept on the checkout’s link', async () => {
    const res = await api(p, 'POST', '/api/v1/checkouts', {
      json: { amount: 900, success_url: 'https://shop.example.dz/ok', custom_fields: FIELDS },
    })
    expect(res.status, JSON.stringify(res.body)).toBe(201)
    const { link_id: linkId } = p.sqlite.sqlite
      .prepare('SELECT link_id FROM checkouts WHERE id = ?')
      .get(res.body.id) as { link_id: string }
    expect(stored(linkId)).toEqual([
      { key: 'wilaya', label: 'Wilaya', type: 'wilaya', options: null, required: true },
      { key: 'size', label: 'Taille', type: 'select', options: ['S', 'M'], required: false },
    ])
    const page = await (await p.app.request(new URL(res.body.url).pathname)).text()
    expect(page).toContain('<select id="cf-wilaya" name="cf_wilaya" required="">')
  })

  it('refuses a bad definition with 400 naming it', async () => {
    const res = await api(p, 'POST', '/api/v1/checkouts', {
      json: {
        amount: 900,
        success_url: 'https://shop.example.dz/ok',
        custom_fields: [{ key: 'size', label: 'Taille', type: 'select' }],
      },
    })
    expect(res.status).toBe(400)
    expect(res.body.error.fields).toEqual({
      'custom_fields[0].options': 'custom_fields[0].options is required for a select field',
    })
    expect(rowCount(p, 'links')).toBe(0)
  })
})
