/**
 * The checkout page is one request: HTML with its stylesheet (and the captcha's script) inline.
 * It must stay under 30 KB in every language, even for a long title, a long description and a
 * dozen invoice items, and must not name any other site to fetch from.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Language } from '../../src/config.js'
import { FAVICON_PATH } from '../../views/favicon.js'
import { openCheckout } from '../flows/support.js'
import { type Paylinks, startPaylinks } from '../support/harness.js'
import { makeLink } from '../support/links.js'

const BUDGET_BYTES = 30 * 1024

const WORDS: Record<Language, string> = {
  ar: 'اشتراك سنوي في النادي الرياضي مع حصص السباحة والتدريب الشخصي ',
  fr: 'Abonnement annuel au club de sport avec natation et coaching personnel ',
  en: 'Yearly sports club membership with swimming and personal coaching ',
}
const repeat = (text: string, length: number) =>
  text
    .repeat(Math.ceil(length / text.length))
    .slice(0, length)
    .trim()

let p: Paylinks
beforeAll(async () => {
  p = await startPaylinks({ env: { CAPTCHA: 'altcha' } })
})
afterAll(async () => {
  await p.close()
})

describe('the checkout page weight', () => {
  for (const lang of ['ar', 'fr', 'en'] as const) {
    it(`stays under 30 KB in ${lang} with a long title, description and twelve items`, async () => {
      const link = await makeLink(p, {
        title: repeat(WORDS[lang], 200),
        description: repeat(WORDS[lang], 600),
        invoice_items: Array.from({ length: 12 }, (_, i) => ({
          description: repeat(`${i + 1}. ${WORDS[lang]}`, 90),
          quantity: i + 1,
          unit_price: (123456 * (i + 1)) / 100,
        })),
        language: lang,
      })
      const { res, html } = await openCheckout(p, link.slug, '?name=Amina%20Benali&ref=CMD-2041')
      expect(res.status).toBe(200)
      expect(html).toContain('<tbody>')
      expect(html).toContain('id="altcha"')
      const bytes = new TextEncoder().encode(html).byteLength
      expect(bytes).toBeLessThan(BUDGET_BYTES)
      // Every resource is inline: no stylesheet, script, image or font is fetched from anywhere
      // (the favicon aside: the browser fetches it on its own, after the page, and caches it).
      const page = html.replace(
        `<link rel="icon" type="image/svg+xml" href="${FAVICON_PATH}"/>`,
        '',
      )
      expect(page).not.toMatch(/<link\b|<img\b|\bsrc=|@import|@font-face|url\(/i)
    })
  }
})
