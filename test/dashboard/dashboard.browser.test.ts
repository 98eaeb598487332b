/**
 * The dashboard in Chromium over loopback HTTP, with the real Content-Security-Policy: sign in,
 * create a link, open its page, copy its address, download its QR code as PNG. Then axe-core on
 * each page in Arabic. Needs /usr/bin/chromium (see test/support/chromium.ts).
 */
import { readFileSync } from 'node:fs'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import {
  axeViolations,
  closeContexts,
  describeInChromium,
  launchChromium,
} from '../support/chromium.js'
import { type Paylinks, startPaylinks, TEST_ADMIN_TOKEN } from '../support/harness.js'

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]

let browser: Browser
let paylinks: Paylinks

async function signIn(page: Page) {
  await page.goto(`${paylinks.url}/dashboard`)
  expect(new URL(page.url()).pathname).toBe('/dashboard/login')
  await page.locator('#token').fill(TEST_ADMIN_TOKEN)
  await page.locator('form[action="/dashboard/login"] button[type=submit]').click()
  await page.waitForURL((url) => url.pathname === '/dashboard')
}

describeInChromium('the dashboard in Chromium', () => {
  beforeAll(async () => {
    paylinks = await startPaylinks({ http: true })
    browser = await launchChromium()
  })
  afterAll(async () => {
    await closeContexts(browser)
    await paylinks?.close()
  })

  it('signs in, creates a link, copies its address and downloads its QR code as PNG', async () => {
    const context = await browser.newContext({ locale: 'en-GB', acceptDownloads: true })
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], {
      origin: paylinks.url,
    })
    const page = await context.newPage()
    const cspViolations: string[] = []
    page.on('console', (message) => {
      if (/Content.Security.Policy/i.test(message.text())) cspViolations.push(message.text())
    })
    try {
      await signIn(page)
      await page.locator('nav.main a[href="/dashboard/links/new"]').click()
      await page.locator('#title').fill('Atelier poterie')
      // "Fixed amount" is chosen by default; the open and items sections are folded away.
      expect(await page.locator('#amount_min').isVisible()).toBe(false)
      await page.locator('#amount').fill('2 500,50')
      await page.locator('form[action="/dashboard/links"] button[type=submit]').click()
      await page.waitForURL((url) => /^\/dashboard\/links\/lnk_\w+$/.test(url.pathname))
      expect(await page.locator('[role=status]').textContent()).toContain(
        'The link has been created.',
      )

      const [row] = paylinks.sqlite.sqlite.prepare('SELECT slug, amount FROM links').all() as {
        slug: string
        amount: number
      }[]
      expect(row!.amount).toBe(250050)
      const publicUrl = `${paylinks.url}/l/${row!.slug}`
      expect(await page.locator('#public-url').inputValue()).toBe(publicUrl)

      // The QR preview loads under the page's CSP.
      const qr = page.locator('.qr img')
      await expect
        .poll(() => qr.evaluate((img: HTMLImageElement) => img.naturalWidth))
        .toBeGreaterThan(0)

      // The copy button appears only with the nonce'd script, and copies the address.
      const copy = page.locator('button[data-copy="public-url"]')
      expect(await copy.isVisible()).toBe(true)
      await copy.click()
      await expect.poll(() => copy.textContent()).toBe('Copied')
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(publicUrl)

      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.locator(`a[href="/l/${row!.slug}/qr.png?download"]`).click(),
      ])
      expect(download.suggestedFilename()).toBe(`paylink-${row!.slug}.png`)
      const png = readFileSync(await download.path())
      expect([...png.subarray(0, 8)]).toEqual(PNG_SIGNATURE)
      expect(cspViolations).toEqual([])
    } finally {
      await context.close()
    }
  })

  it('has no accessibility violations on its pages in Arabic', async () => {
    // bypassCSP only so the test can inject axe-core.
    const context = await browser.newContext({ locale: 'ar', bypassCSP: true })
    const page = await context.newPage()
    const violations = () => axeViolations(page, { impact: 'any' })
    try {
      await page.goto(`${paylinks.url}/dashboard/login`)
      expect(await page.getAttribute('html', 'dir')).toBe('rtl')
      expect(await violations()).toEqual([])
      await signIn(page)
      for (const path of ['/dashboard', '/dashboard/links/new', '/dashboard/payments']) {
        await page.goto(`${paylinks.url}${path}`)
        expect(await violations(), path).toEqual([])
      }
      const [link] = paylinks.sqlite.sqlite.prepare('SELECT id FROM links').all() as {
        id: string
      }[]
      await page.goto(`${paylinks.url}/dashboard/links/${link!.id}`)
      expect(await violations()).toEqual([])
    } finally {
      await context.close()
    }
    // A walk of the dashboard's pages with axe on each: 12 s on a quiet 2-core machine, past the
    // default single test's 20 s when the machine is busy, so its time limit is the walk's.
  }, 60_000)
})
