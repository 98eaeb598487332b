import { afterEach, describe, expect, it } from 'vitest'
import { updateLink } from '../../src/data/links.js'
import { type Paylinks, startPaylinks } from '../support/harness.js'
import { makeLink } from './support.js'

let p: Paylinks
afterEach(async () => {
  await p.close()
})

async function page(path: string) {
  const res = await p.app.request(path)
  const nonce = /'nonce-([^']+)'/.exec(res.headers.get('content-security-policy') ?? '')?.[1] ?? ''
  return { nonce, html: await res.text() }
}

describe('the rendered checkout page, reused between visitors', () => {
  it('carries each response its own CSP nonce and captcha challenge', async () => {
    p = await startPaylinks({ env: { CAPTCHA: 'altcha' } })
    const link = await makeLink(p, { title: 'Cached', amount: 100 })
    const a = await page(`/l/${link.slug}`)
    const b = await page(`/l/${link.slug}`)
    expect(a.nonce).not.toBe(b.nonce)
    expect(a.html).toContain(`<style nonce="${a.nonce}">`)
    expect(b.html).toContain(`<style nonce="${b.nonce}">`)
    expect(b.html).not.toContain(a.nonce)
    expect(b.html).not.toContain('PaylinksNonceMark')
    const challenge = (html: string) => /data-challenge="([^"]+)"/.exec(html)?.[1]
    expect(challenge(a.html)).toBeTruthy()
    expect(challenge(a.html)).not.toBe(challenge(b.html))
  })

  it('shows a change of the link at once', async () => {
    p = await startPaylinks()
    const link = await makeLink(p, { title: 'Before', amount: 100 })
    expect((await page(`/l/${link.slug}`)).html).toContain('Before')
    await updateLink(p.deps.db, link.id, { title: 'After' }, Date.now() + 1)
    const after = (await page(`/l/${link.slug}`)).html
    expect(after).toContain('After')
    expect(after).not.toContain('Before')
  })

  it('renders prefilled forms for their visitor only', async () => {
    p = await startPaylinks()
    const link = await makeLink(p, { title: 'Prefill', amount: 100 })
    expect((await page(`/l/${link.slug}?name=Yasmine`)).html).toContain('value="Yasmine"')
    expect((await page(`/l/${link.slug}`)).html).not.toContain('Yasmine')
  })
})
