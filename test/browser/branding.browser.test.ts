/**
 * The branding set in the dashboard, seen in Chromium: the logo (loaded under the pages' CSP) and
 * the brand colour on the checkout page, the receipt and the poster; the contact details on the
 * terms and failure pages; at 360 and 1280 px, in Arabic and English, with screenshots.
 */
import type { Browser as Chromium, Page } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { Language } from '../../src/config.js'
import { signedIn, storePayment } from '../dashboard/helpers.js'
import { type Paylinks, startPaylinks } from '../support/harness.js'
import { pngLogo } from '../support/images.js'
import { makeLink } from '../support/links.js'
import {
  closeContexts,
  describeInChromium,
  launchChromium,
  openPhone,
  readPage,
  screenshot,
} from './support.js'

let chromium: Chromium
let p: Paylinks
const paths: Record<string, string> = {}

const FIELDS = {
  merchant_name: 'Librairie El Amel',
  brand_color: '#1f6f43',
  contact_phone: '+213 550 12 34 56',
  contact_email: 'contact@elamel.dz',
  contact_address: '12 rue Didouche Mourad\nAlger',
  terms_url: '',
  terms_ar: 'التوصيل خلال 48 ساعة.\n\nالإرجاع خلال 7 أيام.',
  terms_fr: '',
  terms_en: 'Delivery within 48 hours.\n\nReturns within 7 days.',
  default_language: '',
  receipt_footer: 'Thank you — RC 16/00-1234567',
  till_link_minutes: '10',
}

beforeAll(async () => {
  p = await startPaylinks({ http: true })
  const owner = await signedIn(p)
  expect((await owner.submit('/dashboard/settings', '/dashboard/settings', FIELDS)).status).toBe(
    303,
  )
  const form = new FormData()
  form.set('_csrf', await owner.formToken('/dashboard/settings'))
  form.set(
    'logo',
    new Blob([pngLogo(240, 96) as Uint8Array<ArrayBuffer>], { type: 'image/png' }),
    'l.png',
  )
  expect(
    (await owner.request('/dashboard/settings/logo', { method: 'POST', body: form })).status,
  ).toBe(303)
  const link = await makeLink(p, { title: 'Cahier de textes', amount: 1500 })
  paths.checkout = `/l/${link.slug}`
  paths.poster = `/l/${link.slug}/poster`
  paths.receipt = `/r/${(await storePayment(p, link, { status: 'paid' })).receiptId}`
  paths.failure = `/r/${(await storePayment(p, link, { status: 'failed' })).receiptId}`
  paths.terms = '/terms'
  chromium = await launchChromium()
}, 60_000)

afterAll(async () => {
  await closeContexts(chromium)
  await p?.close()
})

const GREEN = 'rgb(31, 111, 67)'

async function open(page: Page, path: string, lang: Language) {
  const res = await page.goto(`${p.url}${path}?lang=${lang}`)
  expect(res?.status()).toBe(200)
}

/** Whether the header's logo was fetched and decoded (an image the CSP blocked has no size). */
const logoLoaded = (page: Page, selector: string) =>
  page.evaluate((name) => {
    const img = document.querySelector<HTMLImageElement>(name)
    return !!img && img.complete && img.naturalWidth > 0
  }, selector)

/**
 * What the checks read, read in the page's own world: the first locator used on a new document
 * injects Playwright's script into it (about 0.15 s of Chromium's CPU a page), and nothing here
 * acts on the page.
 */
const styleOf = (page: Page, selector: string, property: 'backgroundColor' | 'borderTopColor') =>
  page.evaluate(
    ([name, key]) => {
      const element = document.querySelector(name)
      if (!element) throw new Error(`no ${name}`)
      return getComputedStyle(element)[key]
    },
    [selector, property] as const,
  )
const textIn = async (page: Page, selector: string) =>
  (await readPage(page, [selector])).text[selector] ?? ''

describeInChromium('branding in Chromium', () => {
  for (const lang of ['ar', 'en'] as const) {
    for (const width of [360, 1280]) {
      it(`shows the logo, colour and contacts in ${lang} at ${width} px`, async () => {
        const phone = await openPhone(chromium)
        const { page } = phone
        await page.setViewportSize({ width, height: 800 })
        try {
          await open(page, paths.checkout as string, lang)
          expect(await logoLoaded(page, 'header .logo')).toBe(true)
          expect(await styleOf(page, 'button.pay', 'backgroundColor')).toBe(GREEN)
          expect(await textIn(page, 'header .merchant')).toContain('Librairie El Amel')
          await screenshot(page, lang, `branding-checkout-${width}`)

          await open(page, paths.receipt as string, lang)
          expect(await logoLoaded(page, 'header .logo')).toBe(true)
          const receipt = await textIn(page, 'main')
          expect(receipt).toContain('contact@elamel.dz')
          expect(receipt).toContain('Thank you — RC 16/00-1234567')
          await screenshot(page, lang, `branding-receipt-${width}`)

          await open(page, paths.poster as string, lang)
          expect(await logoLoaded(page, '.poster-logo')).toBe(true)
          expect(await styleOf(page, '.card.poster', 'borderTopColor')).toBe(GREEN)
          await screenshot(page, lang, `branding-poster-${width}`)

          await open(page, paths.terms as string, lang)
          const terms = await textIn(page, 'main')
          expect(terms).toContain(
            lang === 'ar' ? 'التوصيل خلال 48 ساعة.' : 'Delivery within 48 hours.',
          )
          expect(terms).toContain('+213 550 12 34 56')
          await screenshot(page, lang, `branding-terms-${width}`)

          await open(page, paths.failure as string, lang)
          expect(await textIn(page, '.contacts')).toContain('contact@elamel.dz')
          await screenshot(page, lang, `branding-failure-${width}`)

          expect(phone.cspViolations).toEqual([])
          expect(phone.outside).toEqual([])
          // No sideways scrolling on a phone.
          const overflow = await page.evaluate(
            () => document.documentElement.scrollWidth - innerWidth,
          )
          expect(overflow).toBeLessThanOrEqual(0)
        } finally {
          await phone.close()
        }
      }, 60_000)
    }
  }
})
