/**
 * A customer pays in Chromium on a phone, in each language, through the simulator's card page:
 * approved, declined, a wrong one-time code, cancelled, a session left to expire. Each journey
 * must land on the right Paylinks page, in the customer's language, accessible, with no request
 * leaving the machine and no CSP violation.
 */
import { readFileSync } from 'node:fs'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { Language } from '../../src/config.js'
import { getPaymentByReceiptId } from '../../src/data/payments.js'
import { formatAmount, formatDateTime, MESSAGES } from '../../src/i18n/index.js'
import { OUTCOMES } from '../../src/simulator/card/outcomes.js'
import { TEST_CARDS } from '../../src/simulator/index.js'
import { WORDS } from '../../src/simulator/views/i18n.js'
import { type Paylinks, startPaylinks } from '../support/harness.js'
import { makeLink } from '../support/links.js'
import {
  axeViolations,
  CUSTOMER,
  closeContexts,
  describeInChromium,
  downloadPath,
  enterCard,
  enterOtp,
  fillCheckoutAndPay,
  LANGUAGES,
  launchChromium,
  onPaylinks,
  openPhone,
  type Phone,
  readPage,
  screenshot,
  textOf,
} from './support.js'

const card = (outcome: string, index = 0) =>
  TEST_CARDS.filter((c) => c.outcome === outcome)[index] as (typeof TEST_CARDS)[number]

let browser: Browser
let p: Paylinks

/** Opens a new link's checkout in `lang`, pays, and returns once on the card page. */
async function toCardPage(phone: Phone, lang: Language, extra: Record<string, unknown> = {}) {
  const link = await makeLink(p, {
    title: MESSAGES[lang].termsOnlineTitle,
    amount: 1500,
    language: lang,
    ...extra,
  })
  await phone.page.goto(`${p.url}/l/${link.slug}`)
  await fillCheckoutAndPay(phone.page)
  await phone.page.locator('#pan').waitFor()
  expect(onPaylinks(phone.page, p.url)).toBe(false)
  // The card network's page speaks the customer's language too.
  expect(await phone.page.getAttribute('html', 'lang')).toBe(lang)
  return link
}

/**
 * Waits until the card page has sent the customer back to Paylinks' return page, loaded (its
 * heading is in the page as served: no locator needed to wait for it, see `readPage`).
 */
async function backOnPaylinks(page: Page) {
  await page.waitForURL((url) => url.origin === p.url && url.pathname.startsWith('/r/'), {
    waitUntil: 'load',
  })
  const receiptId = new URL(page.url()).pathname.split('/')[2] ?? ''
  const payment = await getPaymentByReceiptId(p.deps.db, receiptId)
  if (!payment) throw new Error(`no payment for ${page.url()}`)
  return payment
}

/**
 * The checks every Paylinks page of a journey must pass, read in the page's own world (`readPage`:
 * nothing here acts on the page).
 */
async function expectGoodPage(phone: Phone, lang: Language, title: string) {
  const shown = await readPage(phone.page, ['main h1', '.support'])
  expect(shown.lang).toBe(lang)
  expect(shown.dir).toBe(MESSAGES[lang].dir)
  expect(shown.text['main h1']).toBe(title)
  expect(shown.text['.support']).toBe(MESSAGES[lang].support)
  expect(await axeViolations(phone.page)).toEqual([])
}

describeInChromium('a customer paying in Chromium', () => {
  beforeAll(async () => {
    browser = await launchChromium()
    p = await startPaylinks({ http: true })
  })
  afterAll(async () => {
    await closeContexts(browser)
    await p?.close()
  })

  async function journey(run: (phone: Phone) => Promise<void>) {
    const phone = await openPhone(browser)
    try {
      await run(phone)
      expect(phone.outside).toEqual([])
      expect(phone.cspViolations).toEqual([])
    } finally {
      await phone.close()
    }
  }

  for (const lang of LANGUAGES) {
    const m = MESSAGES[lang]

    it(`pays with an approved card in ${lang} and gets a receipt to print and download`, () =>
      journey(async ({ page, ...phone }) => {
        await toCardPage({ page, ...phone }, lang, {
          success_message: m.receiptThanks,
          success_url: 'https://shop.example.dz/merci',
        })
        await enterCard(page, card('approved'))
        await enterOtp(page)
        const payment = await backOnPaylinks(page)
        expect(payment.status).toBe('paid')
        await expectGoodPage({ page, ...phone }, lang, m.receiptTitle)
        const details = await textOf(page.locator('dl.kv'))
        for (const value of [
          OUTCOMES.approved.respCodeDesc?.[lang] ?? 'missing',
          payment.orderNumber ?? 'missing',
          payment.approvalCode ?? 'missing',
          formatDateTime(payment.paidAt ?? 0, lang),
          formatAmount(150000, lang),
          m.cardMethod,
          'Boutique Test',
        ]) {
          expect(details).toContain(value)
        }
        expect(await textOf(page.locator('.amount'))).toBe(formatAmount(150000, lang))
        expect(await textOf(page.locator('a[href="https://shop.example.dz/merci"]'))).toBe(
          m.continue,
        )
        await screenshot(page, lang, 'receipt')

        // Printing: the buttons and the switcher go, the test banner and the 3020 line stay.
        expect(await page.locator('#print-receipt').isVisible()).toBe(true)
        await page.emulateMedia({ media: 'print' })
        expect(await page.locator('.actions').first().isVisible()).toBe(false)
        expect(await page.locator('nav.lang').isVisible()).toBe(false)
        expect(await page.locator('.test').isVisible()).toBe(true)
        expect(await page.locator('.support').isVisible()).toBe(true)
        await page.emulateMedia({ media: 'screen' })

        // The download is the receipt as a PDF (test/pdf reads its text back).
        const [download] = await Promise.all([
          page.waitForEvent('download'),
          page.locator(`a[href^="/r/${payment.receiptId}/download"]`).click(),
        ])
        expect(download.suggestedFilename()).toMatch(/^receipt-[\w.-]+\.pdf$/)
        const saved = downloadPath(lang, 'receipt.pdf')
        await download.saveAs(saved)
        expect(readFileSync(saved).subarray(0, 5).toString('latin1')).toBe('%PDF-')
      }))

    it(`is declined in ${lang} and sees the bank's message and a way to try again`, () =>
      journey(async (phone) => {
        const link = await toCardPage(phone, lang)
        await enterCard(phone.page, card('insufficient_funds'))
        await enterOtp(phone.page)
        const payment = await backOnPaylinks(phone.page)
        expect(payment.status).toBe('failed')
        await expectGoodPage(phone, lang, m.failedTitle)
        expect(await textOf(phone.page.locator('main'))).toContain(
          OUTCOMES.insufficient_funds.respCodeDesc?.[lang] ?? 'missing',
        )
        await screenshot(phone.page, lang, 'failure')
        await phone.page.locator('main .actions a.btn').click()
        await phone.page.waitForURL((url) => url.pathname === `/l/${link.slug}`)
        expect(await phone.page.getAttribute('html', 'lang')).toBe(lang)
        expect(await phone.page.locator('button.pay').isVisible()).toBe(true)
        // The form is filled in as typed the first time; the terms are accepted again.
        expect(await phone.page.locator('#name').inputValue()).toBe(CUSTOMER.name)
        expect(await phone.page.locator('#phone').inputValue()).toBe(CUSTOMER.phone)
        expect(await phone.page.locator('#email').inputValue()).toBe(CUSTOMER.email)
        expect(await phone.page.locator('input[name=terms]').isChecked()).toBe(false)
        expect(new URL(phone.page.url()).search).not.toContain('amina')
        await phone.page.setViewportSize({ width: 360, height: 800 })
        await screenshot(phone.page, lang, 'checkout-retry')
      }))

    it(`types a wrong one-time code in ${lang}, is told so, then pays with the right one`, () =>
      journey(async (phone) => {
        await toCardPage(phone, lang)
        await enterCard(phone.page, card('approved', 1))
        await enterOtp(phone.page, '000000')
        expect(await textOf(phone.page.locator('[role=alert]'))).toBe(WORDS[lang].invalidOtp)
        await enterOtp(phone.page)
        const payment = await backOnPaylinks(phone.page)
        expect(payment.status).toBe('paid')
        await expectGoodPage(phone, lang, m.receiptTitle)
      }))

    it(`cancels on the card page in ${lang} and lands on the cancelled page`, () =>
      journey(async (phone) => {
        await toCardPage(phone, lang)
        await phone.page.locator('form[action*="/cancel"] button').click()
        const payment = await backOnPaylinks(phone.page)
        expect(payment.status).toBe('canceled')
        await expectGoodPage(phone, lang, m.canceledTitle)
        expect((await readPage(phone.page, ['main'])).text.main).toContain(
          OUTCOMES.canceled.actionCodeDescription[lang],
        )
        await screenshot(phone.page, lang, 'canceled')
      }))

    it(`leaves the card session to expire in ${lang} and lands on the expired page`, () =>
      journey(async (phone) => {
        await toCardPage(phone, lang)
        await phone.page.locator('form[action*="/expire"] button').click()
        const payment = await backOnPaylinks(phone.page)
        expect(payment.status).toBe('expired')
        await expectGoodPage(phone, lang, m.expiredTitle)
        await screenshot(phone.page, lang, 'expired-session')
      }))
  }
})
