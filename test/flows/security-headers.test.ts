import { afterEach, describe, expect, it } from 'vitest'
import { type Paylinks, startPaylinks } from '../support/harness.js'
import { makeLink } from '../support/links.js'

/** Headers of clients long gone, or that OWASP says not to send: no response carries them. */
const DROPPED = [
  'x-xss-protection',
  'x-download-options',
  'x-permitted-cross-domain-policies',
  'x-dns-prefetch-control',
  'origin-agent-cluster',
]

const PAGE = {
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
}

/** The prepared checkout page, a page rendered per visitor, another page, and a webhook reply. */
async function responses(p: Paylinks) {
  const link = await makeLink(p, { title: 'Headers', amount: 100 })
  return {
    prepared: await p.app.request(`/l/${link.slug}`),
    perVisitor: await p.app.request(`/l/${link.slug}?name=Amina`),
    dashboard: await p.app.request('/dashboard/login'),
    webhook: await p.app.request('/webhooks/gateway', { method: 'POST', body: '{}' }),
  }
}

describe('security headers', () => {
  let p: Paylinks
  afterEach(() => p.close())

  it('sends the page headers OWASP recommends and none of the obsolete ones', async () => {
    p = await startPaylinks()
    const { webhook, ...pages } = await responses(p)
    for (const [name, res] of Object.entries(pages)) {
      expect(res.status, name).toBe(200)
      expect(Object.fromEntries(res.headers), name).toMatchObject(PAGE)
      expect(res.headers.get('content-security-policy'), name).toContain("frame-ancestors 'none'")
      for (const header of DROPPED)
        expect(res.headers.has(header), `${name}: ${header}`).toBe(false)
    }
    for (const header of DROPPED) expect(webhook.headers.has(header), header).toBe(false)
  })

  it('sends Strict-Transport-Security only when PUBLIC_URL is https (RFC 6797 forbids it on http)', async () => {
    p = await startPaylinks()
    for (const [name, res] of Object.entries(await responses(p)))
      expect(res.headers.has('strict-transport-security'), name).toBe(false)
    await p.close()
    p = await startPaylinks({ env: { PUBLIC_URL: 'https://pay.example.dz' } })
    for (const [name, res] of Object.entries(await responses(p)))
      expect(res.headers.get('strict-transport-security'), name).toBe(
        'max-age=31536000; includeSubDomains',
      )
  })
})
