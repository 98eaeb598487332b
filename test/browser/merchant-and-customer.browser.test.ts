/**
 * The whole story in Chromium: the merchant signs in to the dashboard, creates a link and
 * downloads its QR code; a customer's phone scans it (the PNG is decoded), pays in Arabic through
 * the card page; the merchant then sees the payment as paid in the dashboard.
 */
import { readFileSync } from 'node:fs'
import jsQR from 'jsqr'
import type { Browser } from 'playwright-core'
import { PNG } from 'pngjs'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { formatAmount, MESSAGES } from '../../src/i18n/index.js'
import { TEST_CARDS } from '../../src/simulator/index.js'
import { type Paylinks, startPaylinks, TEST_ADMIN_TOKEN } from '../support/harness.js'
import {
  CUSTOMER,
  closeContexts,
  describeInChromium,
  downloadPath,
  enterCard,
  enterOtp,
  fillCheckoutAndPay,
  launchChromium,
  openPhone,
  textOf,
} from './support.js'

let browser: Browser
let p: Paylinks

describeInChromium('a merchant and a customer', () => {
  beforeAll(async () => {
    browser = await launchChromium()
    p = await startPaylinks({ http: true })
  })
  afterAll(async () => {
    await closeContexts(browser)
    await p?.close()
  })

  it('creates a link, shares its QR code, and sees the customer’s payment', async () => {
    const merchant = await openPhone(browser)
    const customer = await openPhone(browser)
    try {
      const { page } = merchant
      await page.goto(`${p.url}/dashboard/login`)
      await page.locator('#token').fill(TEST_ADMIN_TOKEN)
      await page.locator('form[action="/dashboard/login"] button[type=submit]').click()
      await page.waitForURL((url) => url.pathname === '/dashboard')
      await page.goto(`${p.url}/dashboard/links/new`)
      await page.locator('#title').fill('حصة تدريب خاصة')
      await page.locator('#amount').fill('3200')
      await page.locator('#language').selectOption('ar')
      await page.locator('form[action="/dashboard/links"] button[type=submit]').click()
      await page.waitForURL((url) => /^\/dashboard\/links\/lnk_\w+$/.test(url.pathname))

      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.locator('a[href$="/qr.png?download"]').click(),
      ])
      const saved = downloadPath('ar', 'qr.png')
      await download.saveAs(saved)
      const png = PNG.sync.read(readFileSync(saved))
      const scanned = jsQR(new Uint8ClampedArray(png.data), png.width, png.height)?.data ?? ''
      expect(scanned).toMatch(new RegExp(`^${p.url}/l/\\w{10,}$`))

      // The customer scans the code with a phone and pays.
      await customer.page.goto(scanned)
      expect(await customer.page.getAttribute('html', 'dir')).toBe('rtl')
      expect(await textOf(customer.page.locator('.amount bdi'))).toBe(formatAmount(320000, 'ar'))
      await fillCheckoutAndPay(customer.page)
      await enterCard(customer.page, TEST_CARDS[1]!)
      await enterOtp(customer.page)
      await customer.page.waitForURL(
        (url) => url.origin === p.url && url.pathname.startsWith('/r/'),
      )
      expect(await textOf(customer.page.locator('main h1'))).toBe(MESSAGES.ar.receiptTitle)

      await page.goto(`${p.url}/dashboard/payments`)
      const row = page.locator('tr[data-payment-id]', { hasText: CUSTOMER.name })
      expect(await row.count()).toBe(1)
      expect(await row.locator('[data-status]').getAttribute('data-status')).toBe('paid')
      expect(merchant.outside).toEqual([])
      expect(customer.outside).toEqual([])
      expect(customer.cspViolations).toEqual([])
    } finally {
      await merchant.close()
      await customer.close()
    }
  })
})
