/**
 * What a customer's browser does around a payment, in Chromium: paying with JavaScript off,
 * switching language on the way, the pending page updating itself, the captcha, which language
 * a page picks, and the poster and receipt printing on one page each.
 */
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createCheckout } from '../../src/data/checkouts.js'
import { getPaymentByReceiptId } from '../../src/data/payments.js'
import { MESSAGES } from '../../src/i18n/index.js'
import { TEST_CARDS } from '../../src/simulator/index.js'
import { type Paylinks, startPaylinks } from '../support/harness.js'
import { makeLink } from '../support/links.js'
import {
  closeContexts,
  describeInChromium,
  enterCard,
  enterOtp,
  fillCheckoutAndPay,
  launchChromium,
  openPhone,
  type Phone,
  startPendingPayment,
  textOf,
} from './support.js'

const APPROVED = TEST_CARDS[0]!
let browser: Browser
let p: Paylinks

async function use(phone: Phone, run: (phone: Phone) => Promise<void>) {
  try {
    await run(phone)
    expect(phone.outside).toEqual([])
    expect(phone.cspViolations).toEqual([])
  } finally {
    await phone.close()
  }
}

/** Pages in a PDF as Chromium prints it. */
const pdfPages = (pdf: Buffer) => (pdf.toString('latin1').match(/\/Type\s*\/Page\b/g) ?? []).length

describeInChromium('a customer browser around the payment', () => {
  beforeAll(async () => {
    browser = await launchChromium()
    p = await startPaylinks({ http: true })
  })
  afterAll(async () => {
    await closeContexts(browser)
    await p?.close()
  })

  it('pays from checkout to receipt with JavaScript turned off', async () =>
    use(await openPhone(browser, { javaScript: false }), async ({ page }) => {
      const link = await makeLink(p, { title: 'Sans script', amount: 800, language: 'fr' })
      await page.goto(`${p.url}/l/${link.slug}`)
      await fillCheckoutAndPay(page)
      await enterCard(page, APPROVED)
      await enterOtp(page)
      await page.waitForURL((url) => url.origin === p.url && url.pathname.startsWith('/r/'))
      expect(await textOf(page.locator('main h1'))).toBe(MESSAGES.fr.receiptTitle)
      // Printing needs script, so its button stays hidden; the download is a plain link.
      expect(await page.locator('#print-receipt').isVisible()).toBe(false)
      expect(await page.locator('a[download]').isVisible()).toBe(true)
    }))

  it('switches to Arabic on the checkout page and keeps Arabic on the card page and receipt', async () =>
    use(await openPhone(browser), async ({ page }) => {
      const link = await makeLink(p, { title: 'Atelier', amount: 2500, language: 'fr' })
      await page.goto(`${p.url}/l/${link.slug}?ref=CMD-12`)
      expect(await page.getAttribute('html', 'lang')).toBe('fr')
      await page.locator('nav.lang a[hreflang=ar]').click()
      await page.waitForURL((url) => url.searchParams.get('lang') === 'ar')
      expect(await page.getAttribute('html', 'dir')).toBe('rtl')
      expect(new URL(page.url()).searchParams.get('ref')).toBe('CMD-12')
      expect(await page.locator('nav.lang a[aria-current]').getAttribute('hreflang')).toBe('ar')
      await fillCheckoutAndPay(page)
      await page.locator('#pan').waitFor()
      expect(await page.getAttribute('html', 'lang')).toBe('ar')
      await enterCard(page, APPROVED)
      await enterOtp(page)
      await page.waitForURL((url) => url.origin === p.url && url.pathname.startsWith('/r/'))
      expect(await textOf(page.locator('main h1'))).toBe(MESSAGES.ar.receiptTitle)
      const receiptId = new URL(page.url()).pathname.split('/')[2] ?? ''
      const payment = await getPaymentByReceiptId(p.deps.db, receiptId)
      expect(payment?.language).toBe('ar')
      expect(payment?.ref).toBe('CMD-12')
    }))

  it('turns the pending page into the receipt by itself once the payment is confirmed', async () =>
    use(await openPhone(browser), async ({ page }) => {
      const link = await makeLink(p, { title: 'En attente', amount: 900, language: 'en' })
      const { tx, receiptId } = await startPendingPayment(p, link.slug)
      await page.goto(`${p.url}/r/${receiptId}`)
      expect(await textOf(page.locator('main h1'))).toBe(MESSAGES.en.pendingTitle)
      await p.simulator.completePayment(tx.cibTransactionId, 'approved')
      await expect
        .poll(() => textOf(page.locator('main h1')), { timeout: 15_000, interval: 250 })
        .toBe(MESSAGES.en.receiptTitle)
    }))

  it('takes a shop’s customer waiting on the pending page on to the shop once the payment is confirmed', async () =>
    use(await openPhone(browser), async ({ page }) => {
      const now = Date.now()
      // The shop's "thank you" page: one of another origin on this machine (the simulator's
      // inspector), as a shop's is, without a request leaving the machine.
      const shop = `${p.simulator.urls.inspectorUrl}?order=88`
      const { checkout, link } = await createCheckout(
        p.deps.db,
        {
          amount: 90000,
          lineItems: null,
          reference: 'CMD-88',
          metadata: {},
          customerName: null,
          customerPhone: null,
          customerEmail: null,
          successUrl: shop,
          cancelUrl: null,
          language: 'en',
          expiresAt: now + 30 * 60_000,
          title: 'Boutique',
        },
        now,
      )
      const { tx } = await startPendingPayment(p, link.slug)
      // Back from the card page before the outcome is known: the return address waits.
      await page.goto(tx.returnUrl ?? '')
      expect(await textOf(page.locator('main h1'))).toBe(MESSAGES.en.pendingTitle)
      await p.simulator.completePayment(tx.cibTransactionId, 'approved')
      await expect
        .poll(() => page.url(), { timeout: 15_000, interval: 250 })
        .toBe(`${shop}&checkout_id=${checkout.id}`)
    }))

  it('picks the link language over the browser language, and the browser language without a link', async () =>
    use(await openPhone(browser, { locale: 'ar-DZ' }), async ({ page }) => {
      await page.goto(`${p.url}/terms`)
      expect(await page.getAttribute('html', 'lang')).toBe('ar')
      const link = await makeLink(p, { title: 'Boutique', amount: 100, language: 'fr' })
      await page.goto(`${p.url}/l/${link.slug}`)
      expect(await page.getAttribute('html', 'lang')).toBe('fr')
    }))

  it('prints the poster on one A5 page and the receipt on one A4 page', async () =>
    use(await openPhone(browser), async ({ page }) => {
      const link = await makeLink(p, {
        title: 'Abonnement mensuel au club de sport et de natation du quartier',
        amount: 123456.78,
        language: 'ar',
      })
      await page.goto(`${p.url}/l/${link.slug}/poster`)
      expect(pdfPages(await page.pdf({ preferCSSPageSize: true }))).toBe(1)

      const { tx, receiptId } = await startPendingPayment(p, link.slug)
      await p.simulator.completePayment(tx.cibTransactionId, 'approved')
      await p.settle()
      await page.goto(`${p.url}/r/${receiptId}`)
      expect(await textOf(page.locator('main h1'))).toBe(MESSAGES.ar.receiptTitle)
      expect(pdfPages(await page.pdf({ format: 'A4' }))).toBe(1)
    }))

  describe('with the captcha on', () => {
    let withCaptcha: Paylinks
    beforeAll(async () => {
      withCaptcha = await startPaylinks({ http: true, env: { CAPTCHA: 'altcha' } })
    })
    afterAll(async () => {
      await withCaptcha?.close()
    })

    it('solves the proof of work in the page, then lets the customer pay', async () =>
      use(await openPhone(browser), async ({ page }) => {
        const link = await makeLink(withCaptcha, { title: 'Captcha', amount: 700, language: 'en' })
        await page.goto(`${withCaptcha.url}/l/${link.slug}`)
        await expect
          .poll(() => textOf(page.locator('#altcha [role=status]')), { timeout: 15_000 })
          .toBe(MESSAGES.en.captchaDone)
        expect(await page.locator('button.pay').isEnabled()).toBe(true)
        await fillCheckoutAndPay(page)
        await page.locator('#pan').waitFor()
        expect(new URL(page.url()).origin).not.toBe(withCaptcha.url)
      }))
  })
})
