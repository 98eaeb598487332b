/**
 * The Pay button of an open-amount link says the amount as the customer types it, under the page's
 * policy (no CSP violation), in the page's own number format, and the form works without script.
 */
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { payments } from '../../db/schema.js'
import { type Paylinks, startPaylinks } from '../support/harness.js'
import { makeLink } from '../support/links.js'
import {
  closeContexts,
  describeInChromium,
  fillCheckoutAndPay,
  launchChromium,
  openPhone,
  type Phone,
  textOf,
} from './support.js'

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

/** The button's words with every kind of space as a plain one. */
const label = async (phone: Phone) =>
  (await textOf(phone.page.locator('button.pay [data-pay]')))
    .replace(/[\s\u202f\u00a0]+/g, ' ')
    .trim()

describeInChromium('the Pay button of an open amount', () => {
  beforeAll(async () => {
    browser = await launchChromium()
    p = await startPaylinks({ http: true })
  })
  afterAll(async () => {
    await closeContexts(browser)
    await p?.close()
  })

  it('says the typed amount in the page language, Arabic-Indic digits included', async () => {
    const link = await makeLink(p, { title: 'Don', amount_min: 50 })
    const cases = [
      ['fr', '1500', 'Payer 1 500,00 DA'],
      ['fr', '١٥٠٠', 'Payer 1 500,00 DA'],
      ['en', '1234567.5', 'Pay 1,234,567.50 DA'],
      ['ar', '٢٥٠٫٥', 'ادفع 250,50 دج'],
    ] as const
    for (const [lang, typed, expected] of cases) {
      await use(await openPhone(browser), async (phone) => {
        await phone.page.goto(`${p.url}/l/${link.slug}?lang=${lang}`)
        const before = await label(phone)
        await phone.page.locator('#amount').fill(typed)
        expect(await label(phone)).toBe(expected)
        // Something that is not an amount gives the plain label back.
        await phone.page.locator('#amount').fill('abc')
        expect(await label(phone)).toBe(before)
      })
    }
  })

  it('leaves a working form without script', async () =>
    use(await openPhone(browser, { javaScript: false }), async ({ page }) => {
      const link = await makeLink(p, { title: 'Sans script', amount_min: 50, language: 'fr' })
      await page.goto(`${p.url}/l/${link.slug}`)
      expect((await textOf(page.locator('button.pay [data-pay]'))).trim()).toBe('Payer')
      await fillCheckoutAndPay(page, '١٥٠٠')
      await page.locator('#pan').waitFor()
      const rows = await p.deps.db.select().from(payments)
      expect(rows.find((r) => r.linkId === link.id)?.amount).toBe(150_000)
    }))
})
