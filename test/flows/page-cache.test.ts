import { afterEach, describe, expect, it } from 'vitest'
import { updateLink } from '../../src/data/links.js'
import { type Paylinks, startPaylinks } from '../support/harness.js'
import { makeLink } from '../support/links.js'

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
  it('is the same page for every visitor but for a captcha challenge of its own', async () => {
    p = await startPaylinks({ env: { CAPTCHA: 'altcha' } })
    const link = await makeLink(p, { title: 'Cached', amount: 100 })
    const a = await page(`/l/${link.slug}`)
    const b = await page(`/l/${link.slug}`)
    const slot = /data-challenge="([^"]*)"/
    const [x, y] = [slot.exec(a.html)?.[1] ?? '', slot.exec(b.html)?.[1] ?? '']
    expect(x).toMatch(/&quot;challenge&quot;:&quot;[0-9a-f]{64}&quot;/)
    expect(y).not.toBe(x)
    expect(b.html.replace(slot, '')).toBe(a.html.replace(slot, ''))
    expect(a.html).not.toContain('nonce')
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
