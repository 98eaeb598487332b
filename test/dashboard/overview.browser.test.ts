/**
 * The overview in Chromium over loopback HTTP, with the real Content-Security-Policy, on a seeded
 * merchant: in Arabic, French and English, at 360 and 1280 px, the charts draw (their classes
 * give the colours), the page does not scroll sideways, nothing breaks the policy, and axe-core
 * finds nothing serious. SCREENSHOTS=/tmp/some-folder keeps full-page screenshots, to be looked
 * at. Needs /usr/bin/chromium.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { seedMerchant } from '../../bench/seed-merchant.js'
import { axeViolations } from '../browser/support.js'
import {
  closeContexts,
  describeInChromium,
  keepScreenshot,
  launchChromium,
} from '../support/chromium.js'
import { type Paylinks, startPaylinks, TEST_ADMIN_TOKEN } from '../support/harness.js'

const NOW = Date.UTC(2026, 0, 15, 10, 0, 0)

let browser: Browser
let paylinks: Paylinks
let dir: string

describeInChromium('the overview in Chromium', () => {
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'paylinks-overview-'))
    const databasePath = join(dir, 'merchant.db')
    seedMerchant(databasePath, 4_000, 40, NOW)
    paylinks = await startPaylinks({ http: true, databasePath, clock: () => NOW })
    // The seed predates failure reasons: give its unsuccessful payments some.
    paylinks.sqlite.sqlite.exec(`UPDATE payments SET failure_code = CASE abs(random()) % 4
      WHEN 0 THEN 'insufficient_funds' WHEN 1 THEN 'declined' WHEN 2 THEN 'session_expired'
      ELSE 'authentication_failed' END WHERE status IN ('failed', 'canceled', 'expired', 'error')`)
    browser = await launchChromium()
  })
  afterAll(async () => {
    await closeContexts(browser)
    await paylinks?.close()
    if (dir) rmSync(dir, { recursive: true, force: true })
  })

  for (const width of [360, 1280]) {
    // Three languages' pages, each loaded and measured: its time limit is theirs.
    it(`fits ${width} px in ar, fr and en with both charts drawn and the policy kept`, async () => {
      const context = await browser.newContext({ viewport: { width, height: 800 } })
      const page = await context.newPage()
      const cspViolations: string[] = []
      page.on('console', (m) => {
        if (/Content.Security.Policy/i.test(m.text())) cspViolations.push(m.text())
      })
      try {
        await page.goto(`${paylinks.url}/dashboard/login`)
        await page.locator('#token').fill(TEST_ADMIN_TOKEN)
        await page.locator('form[action="/dashboard/login"] button[type=submit]').click()
        await page.waitForURL((url) => url.pathname === '/dashboard')
        for (const lang of ['ar', 'fr', 'en'] as const) {
          await page.goto(`${paylinks.url}/dashboard?lang=${lang}`)
          await page.locator('details.ov-numbers summary').click()
          await keepScreenshot(page, `overview/${lang}-${width}`)
          expect(await page.getAttribute('html', 'dir')).toBe(lang === 'ar' ? 'rtl' : 'ltr')
          expect(await page.locator('#chart-collected rect.bar').count()).toBe(30)
          expect(await page.locator('#chart-outcomes g.day').count()).toBe(30)
          // The stylesheet's colours reached the bars: the CSP let the classes work.
          const fill = await page
            .locator('#chart-collected rect.bar')
            .last()
            .evaluate((el) => getComputedStyle(el).fill)
          expect(fill).toBe('rgb(11, 92, 173)')
          const box = await page.locator('#chart-collected').boundingBox()
          expect(box?.width).toBeLessThanOrEqual(width)
          const sideways = await page.evaluate(
            () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
          )
          expect(sideways, `${lang} at ${width} px scrolls sideways`).toBe(0)
          expect(await axeViolations(page), lang).toEqual([])
        }
        expect(cspViolations).toEqual([])
      } finally {
        await context.close()
      }
    }, 40_000)
  }
})
