/**
 * The docs page in Chromium: it loads under the real CSP without a single violation and passes
 * axe-core. Needs /usr/bin/chromium (see test/support/chromium.ts).
 */
import type { Browser, ConsoleMessage, Request } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import {
  axeViolations,
  closeContexts,
  describeInChromium,
  keepScreenshot,
  launchChromium,
  openPage,
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
    // One page for both tests (openPage puts it down for the next): a context costs about a
    // second of Chromium's CPU.
    const { page, close } = await openPage(browser)
    const problems: string[] = []
    const onConsole = (m: ConsoleMessage) => {
      if (m.type() === 'error') problems.push(m.text())
    }
    const onFailed = (r: Request) => problems.push(`${r.url()} ${r.failure()?.errorText}`)
    page.on('console', onConsole)
    page.on('requestfailed', onFailed)
    try {
      const res = await page.goto(`${p.url}/api/docs`)
      expect(res?.status()).toBe(200)
      expect(problems).toEqual([])
      // The nonce'd stylesheet applied: the method badges are coloured, not default black on
      // white. Read in the page's own world (no locator: see readPage).
      const badge = await page.evaluate(() => {
        const el = document.querySelector('#createLink .m')
        return el ? getComputedStyle(el).backgroundColor : 'missing'
      })
      expect(badge).not.toBe('rgba(0, 0, 0, 0)')
      expect(badge).not.toBe('missing')
    } finally {
      page.off('console', onConsole)
      page.off('requestfailed', onFailed)
      await close()
    }
  })

  it('has no accessibility violations (axe-core)', async () => {
    // axe-core is evaluated through the DevTools protocol, which the page's CSP does not govern.
    const { page, close } = await openPage(browser)
    try {
      await page.goto(`${p.url}/api/docs`)
      const violations = await axeViolations(page, { impact: 'any' })
      expect(violations).toEqual([])
      await keepScreenshot(page, 'api-docs')
      // On a phone the field tables wrap their long names instead of widening the page.
      await page.setViewportSize({ width: 360, height: 740 })
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(360)
      // Its tables then scroll in boxes a keyboard can reach.
      expect(await axeViolations(page, { impact: 'any' })).toEqual([])
    } finally {
      await close()
    }
  })
})
