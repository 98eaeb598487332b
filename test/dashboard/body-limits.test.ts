/**
 * The dashboard reads a form only so far: the login (open to all) after its per-address limit and
 * up to 16 KiB, the signed-in forms only once the session is verified and up to 128 KiB.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { getLinkById } from '../../src/data/links.js'
import { DASHBOARD_FORM_BODY_LIMIT, PUBLIC_FORM_BODY_LIMIT } from '../../src/http/body-limits.js'
import { CHUNK, endlessBody, streamed } from '../support/endless-body.js'
import { type Paylinks, startPaylinks } from '../support/harness.js'
import { storeLink } from '../support/links.js'
import { Browser, manualClock, signedIn } from './helpers.js'

const FORM = { 'content-type': 'application/x-www-form-urlencoded' }

let paylinks: Paylinks
beforeEach(async () => {
  paylinks = await startPaylinks({ clock: manualClock() })
})
afterEach(() => paylinks.close())

/** Posts an endless body as `browser`; returns the answer and how much was pulled. */
async function postEndless(browser: Browser, path: string, headers: Record<string, string> = {}) {
  const body = endlessBody()
  const res = await browser.request(path, streamed('POST', body.stream, { ...FORM, ...headers }))
  return { res, pulled: body.pulled() }
}

describe('the login form', () => {
  it('refuses an endless chunked body with a 413 page, reading at most one chunk past 16 KiB', async () => {
    const browser = new Browser(paylinks, { 'accept-language': 'fr' })
    const { res, pulled } = await postEndless(browser, '/dashboard/login')
    expect(res.status).toBe(413)
    expect(await res.text()).toContain('Envoi trop volumineux')
    expect(pulled).toBeGreaterThan(PUBLIC_FORM_BODY_LIMIT)
    expect(pulled).toBeLessThanOrEqual(PUBLIC_FORM_BODY_LIMIT + CHUNK)
  })

  it('refuses a declared Content-Length over 16 KiB without reading a byte', async () => {
    const browser = new Browser(paylinks, { 'accept-language': 'ar' })
    const { res, pulled } = await postEndless(browser, '/dashboard/login', {
      'content-length': String(PUBLIC_FORM_BODY_LIMIT + 1),
    })
    expect(res.status).toBe(413)
    expect(await res.text()).toContain('البيانات المرسلة كبيرة جدًا')
    expect(pulled).toBe(0)
  })

  it('checks the per-address limit before reading the body', async () => {
    const browser = new Browser(paylinks, { 'accept-language': 'en', 'x-test-ip': '10.1.2.3' })
    for (let i = 0; i < 10; i++) {
      expect((await browser.login('wrong-token-wrong-token')).status).toBe(401)
    }
    const { res, pulled } = await postEndless(browser, '/dashboard/login')
    expect(res.status).toBe(429)
    expect(pulled).toBe(0)
  })
})

describe('the signed-in forms', () => {
  it('are not read at all without a session', async () => {
    const link = await storeLink(paylinks)
    const stranger = new Browser(paylinks)
    for (const path of ['/dashboard/links', `/dashboard/links/${link.id}`, '/dashboard/logout']) {
      const { res, pulled } = await postEndless(stranger, path)
      expect(res.status).toBe(303)
      expect(res.headers.get('location')).toBe('/dashboard/login')
      expect(pulled).toBe(0)
    }
  })

  it('refuse an endless chunked body with a 413 page, reading at most one chunk past 128 KiB, and change nothing', async () => {
    const link = await storeLink(paylinks)
    const browser = await signedIn(paylinks)
    const paths = [
      '/dashboard/links',
      `/dashboard/links/${link.id}`,
      `/dashboard/links/${link.id}/deactivate`,
      `/dashboard/links/${link.id}/delete`,
      '/dashboard/logout',
    ]
    for (const path of paths) {
      const { res, pulled } = await postEndless(browser, path)
      expect(res.status, path).toBe(413)
      expect(await res.text()).toContain('Too much was sent')
      expect(pulled).toBeGreaterThan(DASHBOARD_FORM_BODY_LIMIT)
      expect(pulled).toBeLessThanOrEqual(DASHBOARD_FORM_BODY_LIMIT + CHUNK)
    }
    expect(await getLinkById(paylinks.deps.db, link.id)).toMatchObject({ active: true })
    // Still signed in: the refused logout did nothing either.
    expect((await browser.get('/dashboard')).status).toBe(200)
  })

  it('refuse a declared Content-Length over 128 KiB without reading a byte', async () => {
    const browser = await signedIn(paylinks)
    const { res, pulled } = await postEndless(browser, '/dashboard/links', {
      'content-length': String(DASHBOARD_FORM_BODY_LIMIT + 1),
    })
    expect(res.status).toBe(413)
    expect(pulled).toBe(0)
  })

  it('take the largest link form: 50 invoice items and every text at its maximum, in Arabic', async () => {
    const browser = await signedIn(paylinks)
    const ar = (n: number) => 'ب'.repeat(n)
    const items = Array.from({ length: 50 }, (_, i) => `${ar(197)} ${i + 10} | 2 | 1500,50`)
    const form = {
      title: ar(200),
      description: ar(2000),
      pricing: 'items',
      items: items.join('\r\n'),
      max_payments: '1000000',
      expires_at: '2026-12-31T23:59',
      language: 'ar',
      memo: ar(200),
      success_message: ar(2000),
      success_url: `https://shop.example.dz/${'a'.repeat(2048 - 24)}`,
      active: 'on',
      inactive_message: ar(500),
    }
    const _csrf = await browser.formToken('/dashboard/links/new')
    const encoded = new URLSearchParams({ ...form, _csrf })
    // The form this limit was chosen for: far over the public forms' 16 KiB, within 128 KiB.
    expect(encoded.toString().length).toBeGreaterThan(90_000)
    const res = await browser.post('/dashboard/links', encoded)
    expect(res.status).toBe(303)
    const id = /\/dashboard\/links\/(lnk_\w+)\?done=created$/.exec(
      res.headers.get('location') ?? '',
    )?.[1]
    const link = await getLinkById(paylinks.deps.db, id ?? '')
    expect(link?.invoiceItems).toHaveLength(50)
    expect(link?.invoiceItems?.[49]).toEqual({
      description: `${ar(197)} 59`,
      quantity: 2,
      unitPrice: 150050,
    })
    expect(link?.successMessage).toBe(ar(2000))
  })
})
