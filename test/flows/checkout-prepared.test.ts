/**
 * The plain checkout page is prepared once per link version, language and form token, and then
 * sent as is, before the request is routed: same bytes and headers as the full route, a policy that
 * names the hashes of its inline style and script, gzip when asked for, its own log line — and a
 * change to the link shows at once.
 */
import { createHash } from 'node:crypto'
import { gunzipSync } from 'node:zlib'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { acceptsGzip } from '../../src/routes/static-page.js'
import { type Paylinks, startPaylinks, TEST_ADMIN_TOKEN } from '../support/harness.js'
import { makeLink } from '../support/links.js'

let p: Paylinks
let lines: Array<Record<string, unknown>>
beforeEach(async () => {
  lines = []
  p = await startPaylinks({ log: (entry) => lines.push(entry) })
})
afterEach(async () => {
  await p.close()
})

const headersOf = (res: Response) => {
  const all: Record<string, string> = {}
  res.headers.forEach((value, name) => {
    if (name !== 'x-request-id' && name !== 'date') all[name] = value
  })
  return all
}

const sha = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`

describe('the prepared checkout page', () => {
  it('sends the same bytes and headers as the full route, with its own request id', async () => {
    const link = await makeLink(p, { title: 'Prepared', amount: 1500 })
    const first = await p.app.request(`/l/${link.slug}`)
    const second = await p.app.request(`/l/${link.slug}`)
    expect(first.status).toBe(200)
    expect(second.status).toBe(200)
    const [a, b] = [await first.text(), await second.text()]
    expect(b).toBe(a)
    expect(headersOf(second)).toEqual(headersOf(first))
    expect(second.headers.get('x-request-id')).toMatch(/^[0-9A-Za-z]{12}$/)
    expect(second.headers.get('x-request-id')).not.toBe(first.headers.get('x-request-id'))
    // Both requests logged, the prepared one too, under the route and its request id.
    const logged = lines.filter((l) => l.route === '/l/:slug' && l.status === 200)
    expect(logged.map((l) => l.request_id)).toEqual([
      first.headers.get('x-request-id'),
      second.headers.get('x-request-id'),
    ])
  })

  it('allows exactly its own inline style and script by hash, and no nonce', async () => {
    const link = await makeLink(p, { title: 'Hashes', amount: 1500 })
    await p.app.request(`/l/${link.slug}`)
    const res = await p.app.request(`/l/${link.slug}`)
    const html = await res.text()
    const csp = res.headers.get('content-security-policy') ?? ''
    expect(html).not.toContain('nonce')
    expect(csp).not.toContain('nonce')
    const styles = [...html.matchAll(/<style>([\s\S]*?)<\/style>/g)].map((m) => sha(m[1] ?? ''))
    const scripts = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => sha(m[1] ?? ''))
    expect(styles.length).toBeGreaterThan(0)
    expect(csp).toContain(`style-src 'self' ${styles.join(' ')};`)
    expect(csp).toContain(`script-src 'self' ${scripts.join(' ')}`.trim())
    expect(csp).toContain("frame-ancestors 'none'")
  })

  it('sends gzip to a client that takes it, and the same page uncompressed otherwise', async () => {
    const link = await makeLink(p, { title: 'Gzip', amount: 1500 })
    const plain = await (await p.app.request(`/l/${link.slug}`)).text()
    for (let i = 0; i < 2; i++) {
      const res = await p.app.request(`/l/${link.slug}`, {
        headers: { 'accept-encoding': 'gzip, deflate, br' },
      })
      expect(res.headers.get('content-encoding')).toBe('gzip')
      expect(res.headers.get('vary')).toBe('Accept-Encoding')
      const bytes = Buffer.from(await res.arrayBuffer())
      expect(bytes.length).toBeLessThan(plain.length / 2)
      expect(gunzipSync(bytes).toString('utf8')).toBe(plain)
    }
    const refused = await p.app.request(`/l/${link.slug}`, {
      headers: { 'accept-encoding': 'gzip;q=0, identity' },
    })
    expect(refused.headers.get('content-encoding')).toBeNull()
    expect(await refused.text()).toBe(plain)
  })

  it('shows a change to the link at once, and an inactive link its own page', async () => {
    const link = await makeLink(p, { title: 'Before', amount: 1500 })
    await p.app.request(`/l/${link.slug}`)
    expect(await (await p.app.request(`/l/${link.slug}`)).text()).toContain('Before')
    const api = (method: string, body: unknown) =>
      p.app.request(`/api/v1/links/${link.id}`, {
        method,
        headers: { 'content-type': 'application/json', 'x-api-key': TEST_ADMIN_TOKEN },
        body: JSON.stringify(body),
      })
    expect((await api('PATCH', { title: 'After' })).status).toBe(200)
    const changed = await (await p.app.request(`/l/${link.slug}`)).text()
    expect(changed).toContain('After')
    expect(changed).not.toContain('Before')
    expect((await api('PATCH', { active: false })).status).toBe(200)
    expect((await p.app.request(`/l/${link.slug}`)).status).toBe(403)
  })

  it('leaves prefilled forms and other queries to the full route (nonce, values kept)', async () => {
    const link = await makeLink(p, { title: 'Prefill', amount: 1500 })
    await p.app.request(`/l/${link.slug}`)
    const res = await p.app.request(`/l/${link.slug}?name=Amina`)
    const html = await res.text()
    expect(html).toContain('value="Amina"')
    expect(res.headers.get('content-security-policy')).toContain("'nonce-")
    const lang = await p.app.request(`/l/${link.slug}?lang=ar`)
    expect(await lang.text()).toContain('dir="rtl"')
  })
})

describe('the prepared page before routing', () => {
  it('answers at once, without a promise, once the page is prepared', async () => {
    const link = await makeLink(p, { title: 'Sync', amount: 1500 })
    const request = () => new Request(`http://paylinks.test/l/${link.slug}`)
    const first = p.app.fetch(request())
    expect(first).toBeInstanceOf(Promise)
    expect((await first).status).toBe(200)
    const prepared = p.app.fetch(request())
    expect(prepared).not.toBeInstanceOf(Promise)
    expect((prepared as Response).status).toBe(200)
    expect(await (prepared as Response).text()).toBe(await (await first).clone().text())
  })

  it('leaves every other method and path to the routes', async () => {
    const link = await makeLink(p, { title: 'Others', amount: 1500 })
    await p.app.request(`/l/${link.slug}`)
    const head = await p.app.request(`/l/${link.slug}`, { method: 'HEAD' })
    expect(head.status).toBe(200)
    expect(await head.text()).toBe('')
    expect((await p.app.request(`/l/${link.slug}/`)).status).toBe(404)
    expect((await p.app.request(`/l/${link.slug}/qr.svg`)).headers.get('content-type')).toContain(
      'image/svg+xml',
    )
    expect((await p.app.request('/l/no-such-link')).status).toBe(404)
    const posted = await p.app.request(`/l/${link.slug}`, { method: 'POST', body: '' })
    expect(posted.status).toBeGreaterThanOrEqual(400)
    expect(posted.status).toBeLessThan(500)
  })
})

describe('acceptsGzip', () => {
  it('reads Accept-Encoding as browsers send it', () => {
    expect(acceptsGzip('gzip, deflate, br')).toBe(true)
    expect(acceptsGzip('br;q=1.0, gzip;q=0.8, *;q=0.1')).toBe(true)
    expect(acceptsGzip('*')).toBe(true)
    expect(acceptsGzip('GZIP')).toBe(true)
    expect(acceptsGzip('gzip;q=0')).toBe(false)
    expect(acceptsGzip('identity')).toBe(false)
    expect(acceptsGzip('br')).toBe(false)
    expect(acceptsGzip(undefined)).toBe(false)
    expect(acceptsGzip('')).toBe(false)
  })
})

describe('the checkout page weight', () => {
  it('carries only the rules a checkout form uses; message pages get the rest', async () => {
    const link = await makeLink(p, { title: 'Light', amount: 1500 })
    const checkout = await (await p.app.request(`/l/${link.slug}`)).text()
    for (const unused of ['@media print', 'dl.kv', 'svg.status', '.outcome']) {
      expect(checkout).not.toContain(unused)
    }
    expect(checkout).toContain('button.pay{')
    const missing = await (await p.app.request('/l/no-such-link')).text()
    expect(missing).toContain('@media print')
    expect(missing).toContain('.message,.outcome{')
  })
})
