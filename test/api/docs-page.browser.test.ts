/**
 * The docs page in Chromium: it loads under the real CSP without a single violation and passes
 * axe-core. Skipped only when /usr/bin/chromium is missing.
 */
import { existsSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { type Browser, chromium } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Paylinks, startPaylinks } from '../support/harness.js'

const CHROMIUM = '/usr/bin/chromium'
const hasChromium = existsSync(CHROMIUM)
if (!hasChromium) console.warn(`Skipping the docs page browser test: ${CHROMIUM} does not exist.`)

const axeSource = readFileSync(
  createRequire(import.meta.url).resolve('axe-core/axe.min.js'),
  'utf8',
)

let browser: Browser
let p: Paylinks

describe.skipIf(!hasChromium)('the API docs page in Chromium', () => {
  beforeAll(async () => {
    p = await startPaylinks({ http: true })
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run'],
    })
  })
  afterAll(async () => {
    await browser?.close()
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
    await page.addScriptTag({ content: axeSource })
    const violations = await page.evaluate(async () => {
      const axe = (
        globalThis as unknown as {
          axe: { run: () => Promise<{ violations: { id: string; nodes: unknown[] }[] }> }
        }
      ).axe
      return (await axe.run()).violations.map((v) => `${v.id} (${v.nodes.length})`)
    })
    expect(violations).toEqual([])
    if (process.env.PAYLINKS_SCREENSHOT)
      await page.screenshot({ path: process.env.PAYLINKS_SCREENSHOT, fullPage: false })
    await page.context().close()
  })
})
