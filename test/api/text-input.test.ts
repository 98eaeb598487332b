/**
 * Link bodies whose text is not text: invalid UTF-8 sent as raw bytes, a lone surrogate escaped
 * in JSON, control characters. Each is refused with 400 naming the field, and changes nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CLEAN_TEXT_RULE } from '../../src/domain/clean-text.js'
import { type Paylinks, startPaylinks, TEST_ADMIN_TOKEN } from '../support/harness.js'
import { postLink } from '../support/links.js'
import { api, rowCount } from './helpers.js'

const T0 = Date.UTC(2026, 0, 15, 9, 0, 0)
let p: Paylinks
let existing: { id: string; updated_at: string; memo: string | null }
let ip = 0
const fresh = () => ({ 'x-test-ip': `10.1.0.${++ip}` })

beforeAll(async () => {
  p = await startPaylinks({ clock: () => T0 })
  existing = await postLink(p, { title: 'Cours', amount: 1500, memo: 'Piano' })
})
afterAll(() => p.close())

/** Sends bytes as the body, as a client with a broken encoder would. */
async function sendBytes(method: string, path: string, bytes: Uint8Array) {
  const res = await p.app.request(path, {
    method,
    body: new Blob([Uint8Array.from(bytes)]),
    headers: { 'content-type': 'application/json', 'x-api-key': TEST_ADMIN_TOKEN, ...fresh() },
  })
  return { status: res.status, body: await res.json() }
}

const utf8 = (text: string) => new TextEncoder().encode(text)

describe('the link API refuses text that is not text', () => {
  it('invalid UTF-8 bytes inside the title: 400 naming title, no link', async () => {
    const before = rowCount(p, 'links')
    const body = new Uint8Array([...utf8('{"title":"Caf'), 0xff, 0xe9, ...utf8('","amount":1500}')])
    const res = await sendBytes('POST', '/api/v1/links', body)
    expect(res.status).toBe(400)
    expect(res.body.error.code).toBe('invalid_body')
    expect(res.body.error.fields).toEqual({ title: `title ${CLEAN_TEXT_RULE}` })
    expect(rowCount(p, 'links')).toBe(before)
  })

  it.each([
    ['a lone surrogate escaped in JSON', 'description', '"Cours \\ud800"'],
    ['a NUL escaped in JSON', 'memo', '"Pi\\u0000ano"'],
    ['an escape sequence (ESC)', 'success_message', '"\\u001b[2J"'],
    ['a line break in a one-line field', 'invoice_id', '"INV\\n1"'],
    ['a C1 control in the inactive message', 'inactive_message', '"Ferm\\u0085"'],
  ])('%s: 400 naming %s, no link', async (_, field, json) => {
    const before = rowCount(p, 'links')
    const raw = `{"title":"Cours","amount":1500,"${field}":${json}}`
    const res = await api(p, 'POST', '/api/v1/links', {
      raw,
      headers: { 'content-type': 'application/json', ...fresh() },
    })
    expect(res.status).toBe(400)
    expect(res.body.error.fields[field]).toBe(`${field} ${CLEAN_TEXT_RULE}`)
    expect(rowCount(p, 'links')).toBe(before)
  })

  it('an invoice item description with a NUL names the item', async () => {
    const res = await api(p, 'POST', '/api/v1/links', {
      json: {
        title: 'Facture',
        invoice_items: [{ description: 'Livre\u0000', quantity: 1, unit_price: 100 }],
      },
      headers: fresh(),
    })
    expect(res.status).toBe(400)
    expect(Object.keys(res.body.error.fields)).toEqual(['invoice_items[0].description'])
  })

  it('a PATCH with a control character changes nothing', async () => {
    const res = await api(p, 'PATCH', `/api/v1/links/${existing.id}`, {
      json: { memo: 'Guitare\u0007', title: 'Cours' },
      headers: fresh(),
    })
    expect(res.status).toBe(400)
    expect(res.body.error.fields).toEqual({ memo: `memo ${CLEAN_TEXT_RULE}` })
    const after = await api(p, 'GET', `/api/v1/links/${existing.id}`)
    expect(after.body.memo).toBe('Piano')
    expect(after.body.updated_at).toBe(existing.updated_at)
  })

  it('but keeps line breaks and tabs in a description, and any script and emoji', async () => {
    const link = await postLink(p, {
      title: 'دورة 🙂',
      amount: 1500,
      description: 'Ligne 1\nLigne 2\tfin',
    })
    expect(link.title).toBe('دورة 🙂')
    expect(link.description).toBe('Ligne 1\nLigne 2\tfin')
  })
})
