/**
 * The merchant API reads a JSON body only after the token and the write limit, and only up to
 * 64 KiB, whether or not a length is declared.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { API_JSON_BODY_LIMIT } from '../../src/http/body-limits.js'
import { CHUNK, chunkedBody, endlessBody, streamed } from '../support/endless-body.js'
import { type Paylinks, startPaylinks, TEST_ADMIN_TOKEN } from '../support/harness.js'
import { postLink } from '../support/links.js'
import { rowCount } from './helpers.js'

let p: Paylinks
beforeEach(async () => {
  p = await startPaylinks()
})
afterEach(() => p.close())

const HEADERS = { 'content-type': 'application/json', 'x-api-key': TEST_ADMIN_TOKEN }

async function sendEndless(method: string, path: string, headers: Record<string, string>) {
  const body = endlessBody()
  const res = await p.app.request(path, streamed(method, body.stream, headers))
  return { res, json: await res.json(), pulled: body.pulled() }
}

describe('API bodies', () => {
  it('POST and PATCH /api/v1/links refuse an endless chunked body with 413, reading at most one chunk past 64 KiB', async () => {
    const link = await postLink(p, { title: 'Cours', amount: 1500 })
    const links = rowCount(p, 'links')
    for (const [method, path] of [
      ['POST', '/api/v1/links'],
      ['PATCH', `/api/v1/links/${link.id}`],
    ] as const) {
      const { res, json, pulled } = await sendEndless(method, path, HEADERS)
      expect(res.status).toBe(413)
      expect(json.error.code).toBe('payload_too_large')
      expect(json.error.message).toContain(String(API_JSON_BODY_LIMIT))
      expect(pulled).toBeGreaterThan(API_JSON_BODY_LIMIT)
      expect(pulled).toBeLessThanOrEqual(API_JSON_BODY_LIMIT + CHUNK)
    }
    expect(rowCount(p, 'links')).toBe(links)
  })

  it('refuses a declared Content-Length over 64 KiB without reading a byte', async () => {
    const { res, pulled } = await sendEndless('POST', '/api/v1/links', {
      ...HEADERS,
      'content-length': String(API_JSON_BODY_LIMIT + 1),
    })
    expect(res.status).toBe(413)
    expect(pulled).toBe(0)
  })

  it('reads nothing from a request without the admin token', async () => {
    const { res, json, pulled } = await sendEndless('POST', '/api/v1/links', {
      'content-type': 'application/json',
      'x-api-key': 'not-the-admin-token-at-all',
    })
    expect(res.status).toBe(401)
    expect(json.error.code).toBeTruthy()
    expect(pulled).toBe(0)
  })

  it('takes a chunked body within the limit: a link with 50 items and every text at its maximum, in Arabic', async () => {
    const ar = (n: number) => 'ب'.repeat(n)
    const body = JSON.stringify({
      title: ar(200),
      description: ar(2000),
      invoice_items: Array.from({ length: 50 }, () => ({
        description: ar(200),
        quantity: 2,
        unit_price: 1500.5,
      })),
      language: 'ar',
      memo: ar(200),
      success_message: ar(2000),
      inactive_message: ar(500),
    })
    const res = await p.app.request(
      '/api/v1/links',
      streamed('POST', chunkedBody(body, 4096), HEADERS),
    )
    expect(res.status).toBe(201)
    expect((await res.json()).invoice_items).toHaveLength(50)
  })
})
