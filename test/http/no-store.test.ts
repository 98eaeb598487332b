/**
 * The merchant API's and the dashboard's answers carry payments, customers and secrets: every one
 * of them says `Cache-Control: no-store`, successes and errors alike, and the CSV export too. Public
 * images and icons keep their own caching.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api } from '../api/helpers.js'
import { signedIn, storePayment } from '../dashboard/helpers.js'
import { type Paylinks, startPaylinks } from '../support/harness.js'
import { postLink, storeLink } from '../support/links.js'

let p: Paylinks
beforeAll(async () => {
  p = await startPaylinks()
})
afterAll(() => p.close())

const cacheControl = (res: { headers: Headers }) => res.headers.get('cache-control')

describe('Cache-Control: no-store', () => {
  it('is on every merchant API answer, successes and errors', async () => {
    const link = await postLink(p, { title: 'Privé', amount: 1500 })
    const answers = {
      created: await api(p, 'POST', '/api/v1/links', { json: { title: 'Autre', amount: 900 } }),
      read: await api(p, 'GET', `/api/v1/links/${link.id}`),
      list: await api(p, 'GET', '/api/v1/payments'),
      noKey: await api(p, 'GET', '/api/v1/payments', { token: null }),
      badQuery: await api(p, 'GET', '/api/v1/payments?limit=0'),
      missing: await api(p, 'GET', '/api/v1/links/lnk_none'),
      noRoute: await api(p, 'GET', '/api/v1/nothing-here'),
      wrongMethod: await api(p, 'PUT', '/api/v1/payments'),
    }
    expect(Object.fromEntries(Object.entries(answers).map(([k, r]) => [k, r.status]))).toEqual({
      created: 201,
      read: 200,
      list: 200,
      noKey: 401,
      badQuery: 400,
      missing: 404,
      noRoute: 404,
      wrongMethod: 405,
    })
    for (const [name, res] of Object.entries(answers))
      expect(cacheControl(res), name).toBe('no-store')
  })

  it('is on an API answer to an error thrown inside a handler (the 500)', async () => {
    // The audit table gone for a moment: reading the log throws.
    p.sqlite.sqlite.exec('ALTER TABLE audit_log RENAME TO audit_log_away')
    try {
      const res = await api(p, 'GET', '/api/v1/audit')
      expect(res.status).toBe(500)
      expect(cacheControl(res)).toBe('no-store')
    } finally {
      p.sqlite.sqlite.exec('ALTER TABLE audit_log_away RENAME TO audit_log')
    }
  })

  it('is on dashboard pages, redirects and the CSV export', async () => {
    const link = await storeLink(p, { title: 'Export' })
    await storePayment(p, link, { status: 'paid', email: 'amina@example.dz' })
    const browser = await signedIn(p)
    const overview = await browser.get('/dashboard')
    const payments = await browser.get('/dashboard/payments')
    const csv = await browser.get('/dashboard/payments.csv')
    const signedOut = await p.app.request('/dashboard/links')
    expect([overview.status, payments.status, csv.status, signedOut.status]).toEqual([
      200, 200, 200, 303,
    ])
    expect(csv.headers.get('content-type')).toMatch(/^text\/csv/)
    expect(await csv.text()).toContain('amina@example.dz')
    for (const res of [overview, payments, csv, signedOut])
      expect(cacheControl(res)).toBe('no-store')
  })

  it('leaves the caching of public icons as it was', async () => {
    expect(cacheControl(await p.app.request('/favicon.ico'))).toBe('public, max-age=86400')
  })
})
