/**
 * The link page's sharing in Chromium, under the real Content-Security-Policy: the pay button's
 * HTML is copied, and the share sheet button appears only where the browser has a share sheet.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { Link } from '../../db/schema.js'
import { payButtonSnippet } from '../../src/dashboard/share-links.js'
import { closeContexts, describeInChromium, launchChromium } from '../support/chromium.js'
import { type Paylinks, startPaylinks, TEST_ADMIN_TOKEN } from '../support/harness.js'
import { storeLink } from '../support/links.js'

let browser: Browser
let paylinks: Paylinks
let link: Link

/** A signed-in page on the link's page, with CSP reports collected. */
async function openLinkPage(context: BrowserContext): Promise<{ page: Page; csp: string[] }> {
  const page = await context.newPage()
  const csp: string[] = []
  page.on('console', (m) => {
    if (/Content.Security.Policy/i.test(m.text())) csp.push(m.text())
  })
  await page.goto(`${paylinks.url}/dashboard/login`)
  await page.locator('#token').fill(TEST_ADMIN_TOKEN)
  await Promise.all([
    page.waitForURL((url) => url.pathname === '/dashboard'),
    page.locator('form[action="/dashboard/login"] button[type=submit]').click(),
  ])
  await page.goto(`${paylinks.url}/dashboard/links/${link.id}`)
  return { page, csp }
}

describeInChromium('sharing a link in Chromium', () => {
  beforeAll(async () => {
    paylinks = await startPaylinks({ http: true })
    link = await storeLink(paylinks, { title: 'Atelier poterie', language: 'fr' })
    browser = await launchChromium()
  })
  afterAll(async () => {
    await closeContexts(browser)
    await paylinks?.close()
  })

  it('copies the pay button HTML, and hides the share sheet button without a share sheet', async () => {
    const context = await browser.newContext({ locale: 'en-GB' })
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], {
      origin: paylinks.url,
    })
    try {
      const { page, csp } = await openLinkPage(context)
      // Desktop Chromium on Linux has no share sheet.
      expect(await page.evaluate(() => 'share' in navigator)).toBe(false)
      expect(await page.locator('button[data-share]').isVisible()).toBe(false)
      const copy = page.locator('button[data-copy="pay-button-code"]')
      await copy.click()
      await expect.poll(() => copy.textContent()).toBe('Copied')
      const url = `${paylinks.url}/l/${link.slug}`
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(
        payButtonSnippet(link, url),
      )
      // The warning: this test's PUBLIC_URL is 127.0.0.1.
      expect(await page.locator('[data-warning="local-public-url"]').textContent()).toContain(
        'Customers’ phones cannot open this address',
      )
      expect(csp).toEqual([])
    } finally {
      await context.close()
    }
  })

  it('opens the share sheet with the link title, message and URL where there is one', async () => {
    const context = await browser.newContext({ locale: 'en-GB' })
    // A share sheet as a phone's browser has it, recording what it is given.
    await context.addInitScript(() => {
      const shared: unknown[] = []
      Object.assign(window, { shared })
      Object.defineProperty(navigator, 'share', {
        value: async (data: unknown) => {
          shared.push(data)
        },
      })
    })
    try {
      const { page, csp } = await openLinkPage(context)
      const button = page.locator('button[data-share]')
      expect(await button.isVisible()).toBe(true)
      await button.click()
      await expect
        .poll(() => page.evaluate(() => (window as unknown as { shared: unknown[] }).shared))
        .toEqual([
          {
            title: 'Atelier poterie',
            text: 'Atelier poterie : payez par carte sur',
            url: `${paylinks.url}/l/${link.slug}`,
          },
        ])
      expect(csp).toEqual([])
    } finally {
      await context.close()
    }
  })
})
