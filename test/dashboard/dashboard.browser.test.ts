/**
 * The dashboard in Chromium over loopback HTTP, with the real Content-Security-Policy: sign in,
 * create a link, open its page, copy its address, download its QR code as PNG. Then axe-core on
 * each page in Arabic. Skipped only when /usr/bin/chromium is missing.
 */
import { existsSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { type Browser, chromium, type Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Paylinks, startPaylinks, TEST_ADMIN_TOKEN } from '../support/harness.js'

const CHROMIUM = '/usr/bin/chromium'
const hasChromium = existsSync(CHROMIUM)
if (!hasChromium) console.warn(`Skipping the dashboard browser tests: ${CHROMIUM} does not exist.`)

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

describe.skipIf(!hasChromium)('the dashboard in Chromium', () => {
  beforeAll(async () => {
    paylinks = await startPaylinks({ http: true })
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    })
  })
  afterAll(async () => {
    await browser?.close()
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
      const copy = page.locator('button[data-copy]')
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
    const axeSource = readFileSync(
      createRequire(import.meta.url).resolve('axe-core/axe.min.js'),
      'utf8',
    )
    // bypassCSP only so the test can inject axe-core.
    const context = await browser.newContext({ locale: 'ar', bypassCSP: true })
    const page = await context.newPage()
    const violations = async () => {
      await page.addScriptTag({ content: axeSource })
      const result = await page.evaluate(async () => {
        const axe = (
          globalThis as unknown as {
            axe: { run: () => Promise<{ violations: { id: string; impact: string }[] }> }
          }
        ).axe
        return axe.run()
      })
      return result.violations.map((v) => `${v.id} (${v.impact})`)
    }
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
  })
})
