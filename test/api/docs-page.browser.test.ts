/**
 * The docs page in Chromium: it loads under the real CSP without a single violation and passes
 * axe-core. Needs /usr/bin/chromium (see test/support/chromium.ts).
 */
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import {
  axeViolations,
  closeContexts,
  describeInChromium,
  keepScreenshot,
  launchChromium,
} from '../support/chromium.js'
import { type Paylinks, startPaylinks } from '../support/harness.js'

let browser: Browser
let p: Paylinks

describeInChromium('the API docs page in Chromium', () => {
  beforeAll(async () => {
    p = await startPaylinks({ http: true })
    browser = await launchChromium()
  })
  afterAll(async () => {
    await closeContexts(browser)
    await p?.close()
  })

  it('loads under the Content-Security-Policy with its styles applied and nothing refused', async () => {
    const page = await (await browser.newContext()).newPage()
    const problems: string[] = []
    page.on('console', (m) => {
      if (m.type() === 'error') problems.push(m.text())
    })
    page.on('requestfailed', (r) => problems.push(`${r.url()} ${r.failure()?.errorText}`))
    const res = await page.goto(`${p.url}/api/docs`)
    expect(res?.status()).toBe(200)
    expect(problems).toEqual([])
    // The nonce'd stylesheet applied: the method badges are coloured, not default black on white.
    const badge = await page
      .locator('#createLink .m')
      .evaluate((el) => getComputedStyle(el).backgroundColor)
    expect(badge).not.toBe('rgba(0, 0, 0, 0)')
    await page.context().close()
  })

  it('has no accessibility violations (axe-core)', async () => {
    // bypassCSP lets the test inject axe-core; the page itself runs no script.
    const page = await (await browser.newContext({ bypassCSP: true })).newPage()
    await page.goto(`${p.url}/api/docs`)
    const violations = await axeViolations(page, { impact: 'any' })
    expect(violations).toEqual([])
    await keepScreenshot(page, 'api-docs')
    // On a phone the field tables wrap their long names instead of widening the page.
    await page.setViewportSize({ width: 360, height: 740 })
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(360)
    // Its tables then scroll in boxes a keyboard can reach.
    expect(await axeViolations(page, { impact: 'any' })).toEqual([])
    await page.context().close()
  })
})
