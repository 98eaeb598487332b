/**
 * Pays through the card page in Chromium for each test card, then cancels and lets a session
 * expire, and runs axe-core on each step in each language. Needs /usr/bin/chromium (see
 * test/support/chromium.ts).
 */
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { SIMULATOR_MERCHANT_ACCOUNT, TEST_CARDS, TEST_OTP } from '../../src/simulator/index.js'
import { WORDS } from '../../src/simulator/views/i18n.js'
import {
  axeViolations,
  closeContexts,
  describeInChromium,
  keepScreenshot,
  launchChromium,
  openPage,
} from '../support/chromium.js'
import {
  type RunningSimulator,
  startReceiver,
  startSimulator,
  type WebhookReceiver,
} from './helpers.js'

let browser: Browser
let run: RunningSimulator
let shop: WebhookReceiver

describeInChromium('the card page in Chromium', () => {
  beforeAll(async () => {
    shop = await startReceiver()
    run = await startSimulator()
    browser = await launchChromium()
  })
  afterAll(async () => {
    await closeContexts(browser)
    await run?.close()
    await shop?.close()
  })

  async function create(
    language: string,
  ): Promise<{ payment_url: string; cib_transaction_id: number }> {
    const returnUrl = new URL(shop.url)
    returnUrl.pathname = '/return'
    returnUrl.searchParams.set('order', 'A-1')
    const query = new URLSearchParams({
      account: SIMULATOR_MERCHANT_ACCOUNT,
      amount: '1500',
      full_name: 'Amina',
      phone: '0555123456',
      email: 'a@b.dz',
      return_url: returnUrl.toString(),
      webhook_url: shop.url,
      redirect: 'no',
      keep_return_url: 'True',
      language,
    })
    return (await (await fetch(`${run.url}/make-cib-transaction/?${query}`)).json()) as never
  }

  /** axe-core's violations on the page, of any impact. */
  const anyAxeViolations = (page: Page) => axeViolations(page, { impact: 'any' })

  // bypassCSP as the page itself runs no script; a page put down is taken again (openPage).
  const newPage = (javaScriptEnabled = true) =>
    openPage(browser, { bypassCSP: true, javaScriptEnabled })

  const checkAnswer = async (id: number) =>
    (await (await fetch(`${run.url}/cib-transaction-check/?order_number=${id}`)).json()) as Record<
      string,
      unknown
    >

  const languages = ['en', 'fr', 'ar'] as const
  TEST_CARDS.forEach((card, index) => {
    const lang = languages[index % languages.length]!
    // The card and code pages do not depend on the card: axe-core checks them once per language,
    // with the first card in it (a second run on the same page in the same language found the
    // same things).
    const checkAxe = index < languages.length
    it(`pays with ${card.label} (${lang}) and comes back to the return URL`, async () => {
      const tx = await create(lang)
      const { page, close } = await newPage()
      try {
        await page.goto(tx.payment_url)
        expect(await page.getAttribute('html', 'dir')).toBe(lang === 'ar' ? 'rtl' : 'ltr')
        if (checkAxe) {
          expect(await anyAxeViolations(page)).toEqual([])
          // The test cards are named once, by their table's caption.
          expect(await page.getByText(WORDS[lang].testCards, { exact: true }).count()).toBe(1)
          // On a 360 px phone the amount keeps to one line (it broke inside "3 500,0|0 DA").
          await page.setViewportSize({ width: 360, height: 740 })
          const amountLines = await page.evaluate(() => {
            const range = document.createRange()
            range.selectNodeContents(document.querySelector('dd.amount') as Element)
            return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size
          })
          expect(amountLines).toBe(1)
        }
        await page.locator('#pan').fill(card.number)
        await page.locator('#expiry').fill(card.expiry)
        await page.locator('#cvv').fill(card.cvv)
        await page.locator('form[action$="/card"] button[type=submit]').click()
        await page.locator('#otp').waitFor()
        if (checkAxe) expect(await anyAxeViolations(page)).toEqual([])
        await page.locator('#otp').fill('999999')
        await page.locator('form[action$="/otp"] button[type=submit]').click()
        await expect
          .poll(() => page.locator('[role=alert]').textContent())
          .toContain('Invalid OTP code')
        await page.locator('#otp').fill(TEST_OTP)
        await page.locator('form[action$="/otp"] button[type=submit]').click()
        await page.waitForURL((url) => url.pathname === '/return')
        const url = new URL(page.url())
        expect(url.searchParams.get('order')).toBe('A-1')
        expect(url.searchParams.get('payment_status')).toBe(
          card.outcome === 'approved' ? 'success' : 'failed',
        )
        expect(url.searchParams.get('signature')).toBeTruthy()
        expect((await checkAnswer(tx.cib_transaction_id)).orderStatus).toBe(
          card.outcome === 'approved' ? 2 : 6,
        )
      } finally {
        await close()
      }
    })
  })

  for (const [button, status, actionCode] of [
    ['cancel', 'canceled', 10],
    ['expire', 'expired', -2007],
  ] as const) {
    it(`${button === 'cancel' ? 'cancels' : 'lets the session expire'} from the card page, with JavaScript off`, async () => {
      const tx = await create('fr')
      const { page, close } = await newPage(false)
      try {
        await page.goto(tx.payment_url)
        await page.locator(`form[action$="/${button}"] button`).click()
        await page.waitForURL((url) => url.pathname === '/return')
        expect(new URL(page.url()).searchParams.get('payment_status')).toBe(status)
        expect((await checkAnswer(tx.cib_transaction_id)).actionCode).toBe(actionCode)
      } finally {
        await close()
      }
    })
  }

  it('shows a result page without accessibility violations', async () => {
    const tx = await create('ar')
    await run.sim.completePayment(String(tx.cib_transaction_id), 'approved')
    const { page, close } = await newPage()
    try {
      await page.goto(tx.payment_url)
      expect(await page.locator('[role=status]').textContent()).toContain('تم قبول الدفع')
      expect(await anyAxeViolations(page)).toEqual([])
      // The inspector, with the transactions of the tests above, fits a 360 px phone: its
      // tables scroll inside the page, nothing else is wider.
      await page.setViewportSize({ width: 360, height: 740 })
      await page.goto(`${run.url}/_inspect`)
      await keepScreenshot(page, 'simulator-inspector-360')
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(360)
    } finally {
      await page.setViewportSize({ width: 1280, height: 720 })
      await close()
    }
  })
})
