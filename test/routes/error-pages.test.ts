/** The pages that say no (routes/error-pages.tsx): each surface's status, words and way back. */
import { afterEach, describe, expect, it } from 'vitest'
import { signedIn } from '../dashboard/helpers.js'
import { type Paylinks, startPaylinks } from '../support/harness.js'
import { makeLink } from '../support/links.js'

let p: Paylinks
afterEach(async () => {
  await p.close()
})

const title = (html: string) => /<h1 id="msg-title">([^<]*)<\/h1>/.exec(html)?.[1]
const back = (html: string) => /<a class="btn" href="([^"]*)">/.exec(html)?.[1]

describe('the pages that say no', () => {
  it('answer a customer in their language, with a way back where there is one', async () => {
    p = await startPaylinks()
    const titles: Record<string, string> = {
      ar: 'الصفحة غير موجودة',
      fr: 'Page introuvable',
      en: 'Page not found',
    }
    for (const [lang, expected] of Object.entries(titles)) {
      const res = await p.app.request(`/nowhere?lang=${lang}`)
      expect(res.status).toBe(404)
      const html = await res.text()
      expect(html).toContain(`<html lang="${lang}"`)
      expect(title(html)).toBe(expected)
      expect(back(html)).toBeUndefined()
    }
    const link = await makeLink(p, { title: 'Big', amount: 1500, language: 'en' })
    const big = await p.app.request(`/l/${link.slug}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `name=${'x'.repeat(100_000)}`,
    })
    expect(big.status).toBe(413)
    const html = await big.text()
    expect(title(html)).toBe('Too much was sent')
    expect(back(html)).toBe(`/l/${link.slug}?lang=en`)
  })

  it('answer a merchant in the dashboard, each with a way back to the links', async () => {
    p = await startPaylinks()
    const browser = await signedIn(p)
    const answers = [
      [await browser.post('/dashboard/links', { title: 'No token' }), 403, 'This form has expired'],
      [await browser.get('/dashboard/links/nope/edit'), 404, 'Not found'],
      [
        await browser.post('/dashboard/links', { title: 'x'.repeat(200_000) }),
        413,
        'Too much was sent',
      ],
    ] as const
    for (const [res, status, expected] of answers) {
      expect(res.status).toBe(status)
      const html = await res.text()
      expect(title(html)).toBe(expected)
      expect(back(html)).toBe('/dashboard/links')
    }
  })
})
