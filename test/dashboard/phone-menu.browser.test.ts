/**
 * The signed-in dashboard's header in Chromium, with the real Content-Security-Policy: on a 360 px
 * phone one row (the merchant, the current page's name, a menu button) whose menu opens by
 * keyboard and lists every page the role may open, the current one marked, mirrored in Arabic,
 * with no axe-core violation and nothing outside the viewport; without script it still opens; at
 * 1280 px the entries are a row and there is no menu button. Owner and cashier in each language,
 * manager and viewer in one.
 *
 * SCREENSHOTS=/tmp/some-folder keeps the header closed (360 and 1280 px) and open (360 px).
 */
import type { Browser, BrowserContext, ConsoleMessage, Page } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { Language } from '../../src/config.js'
import { dashTranslator } from '../../src/dashboard/messages.js'
import { accept, invite } from '../auth/people-support.js'
import {
  axeViolations,
  closeContexts,
  describeInChromium,
  keepScreenshot,
  launchChromium,
} from '../support/chromium.js'
import { type Paylinks, startPaylinks } from '../support/harness.js'
import { overflow } from '../support/phone-overflow.js'
import { type Browser as Jar, signedIn } from './helpers.js'

const PHONE = { width: 360, height: 740 }
const DESK = { width: 1280, height: 900 }
/** The header row's height bound at 360 px: one row of a 44 px button and its padding. */
const ONE_ROW = 64

type Role = 'owner' | 'manager' | 'cashier' | 'viewer'

/** What each role's menu lists, in order (the admin token signs in as the owner). */
const ENTRIES: Record<Role, string[]> = {
  owner: [
    '/dashboard',
    '/dashboard/links',
    '/dashboard/products',
    '/dashboard/promo-codes',
    '/dashboard/payments',
    '/dashboard/checkouts',
    '/dashboard/links/new',
    '/dashboard/till',
    '/dashboard/webhooks',
    '/dashboard/people',
    '/dashboard/keys',
    '/dashboard/audit',
    '/dashboard/settings',
    '/dashboard/account',
  ],
  manager: [
    '/dashboard',
    '/dashboard/links',
    '/dashboard/products',
    '/dashboard/promo-codes',
    '/dashboard/payments',
    '/dashboard/checkouts',
    '/dashboard/links/new',
    '/dashboard/till',
    '/dashboard/webhooks',
    '/dashboard/account',
  ],
  cashier: ['/dashboard/payments', '/dashboard/till', '/dashboard/account'],
  viewer: [
    '/dashboard',
    '/dashboard/links',
    '/dashboard/products',
    '/dashboard/promo-codes',
    '/dashboard/payments',
    '/dashboard/checkouts',
    '/dashboard/account',
  ],
}

let browser: Browser
let paylinks: Paylinks
const sessions = new Map<Role, Jar>()

/** The phone of each test: one context, signed in as each role in turn (one renderer for all). */
const phones = new Map<boolean, BrowserContext>()

/**
 * A page on a phone signed in as `role` (the session cookie of a sign-in made in-process), with or
 * without script.
 */
async function phoneOf(role: Role, javaScriptEnabled = true): Promise<Page> {
  let context = phones.get(javaScriptEnabled)
  if (!context) {
    context = await browser.newContext({
      viewport: PHONE,
      isMobile: true,
      hasTouch: true,
      javaScriptEnabled,
    })
    await context.newPage()
    phones.set(javaScriptEnabled, context)
  }
  await context.clearCookies()
  await context.addCookies(
    [...sessions.get(role)!.jar.cookies].map(([name, value]) => ({
      name,
      value,
      url: paylinks.url,
    })),
  )
  const page = context.pages()[0]!
  await page.setViewportSize(PHONE)
  return page
}

/** The header's parts as the page lays them out. */
function header(page: Page) {
  return page.evaluate(() => {
    const box = (selector: string) => {
      const element = document.querySelector(selector)
      const r = element?.getBoundingClientRect()
      return {
        left: r?.left ?? Number.NaN,
        right: r?.right ?? Number.NaN,
        height: r?.height ?? Number.NaN,
        visible: !!element?.checkVisibility(),
      }
    }
    const entries = [...document.querySelectorAll('nav.main ul a')] as HTMLAnchorElement[]
    return {
      row: box('header .wrap.top'),
      button: box('details.menu > summary'),
      where: box('header .where'),
      here: document.querySelector('header .here')?.textContent,
      open: document.querySelector('details.menu')?.hasAttribute('open'),
      focused: document.activeElement?.matches('details.menu > summary') ?? false,
      hrefs: entries.map((a) => a.getAttribute('href')),
      // Shown: a closed <details> skips its content's rendering (content-visibility), which
      // checkVisibility() sees and the content's boxes do not.
      visible: entries.filter((a) => a.checkVisibility()).length,
      current: entries
        .filter((a) => a.getAttribute('aria-current') === 'page')
        .map((a) => a.getAttribute('href')),
      /** The current entry's mark, on its inline-start side. */
      mark: (() => {
        const a = document.querySelector('nav.main a[aria-current]')
        if (!a) return null
        const style = getComputedStyle(a)
        return { left: style.borderLeftWidth, right: style.borderRightWidth }
      })(),
    }
  })
}

describeInChromium('the dashboard header menu', () => {
  beforeAll(async () => {
    paylinks = await startPaylinks({ http: true })
    const admin = await signedIn(paylinks)
    sessions.set('owner', admin)
    for (const role of ['manager', 'cashier', 'viewer'] as const) {
      const link = await invite(admin, `${role}@boutique.example.dz`, role)
      sessions.set(role, (await accept(paylinks, link, `Amina ${role}`)).browser)
    }
    browser = await launchChromium()
  })
  afterAll(async () => {
    await closeContexts(browser)
    await paylinks?.close()
  })

  const cases: [Role, Language[]][] = [
    ['owner', ['en', 'fr', 'ar']],
    ['cashier', ['en', 'fr', 'ar']],
    ['manager', ['fr']],
    ['viewer', ['ar']],
  ]
  for (const [role, languages] of cases) {
    it(`is one row with a menu at 360 px and a row of entries at 1280 px for the ${role} (${languages.join(', ')})`, async () => {
      const page = await phoneOf(role)
      const problems: string[] = []
      const onConsole = (m: ConsoleMessage) => {
        if (/Content.Security.Policy/i.test(m.text())) problems.push(m.text())
      }
      page.on('console', onConsole)
      try {
        for (const lang of languages) {
          const t = dashTranslator(lang)
          const rtl = lang === 'ar'
          // Payments: a page every role may open.
          await page.goto(`${paylinks.url}/dashboard/payments?lang=${lang}`)
          const closed = await header(page)
          expect(closed.row.height, `${lang}: header row height`).toBeLessThanOrEqual(ONE_ROW)
          expect(closed.button.visible).toBe(true)
          expect(closed.here).toBe(t('navPayments'))
          expect(closed.visible, 'entries hidden while the menu is closed').toBe(0)
          // The button at the row's inline end: the right in French and English, the left in Arabic.
          if (rtl) expect(closed.button.right).toBeLessThanOrEqual(closed.where.left)
          else expect(closed.button.left).toBeGreaterThanOrEqual(closed.where.right)
          expect(await page.locator('details.menu > summary').innerText()).toBe(t('navMenu'))
          await keepScreenshot(page, `menu/${role}-${lang}-closed`, [PHONE, DESK])

          // Keyboard: the button is the page's first stop; Enter opens it, Escape closes it and
          // gives the focus back, Space opens it again.
          await page.keyboard.press('Tab')
          expect((await header(page)).focused, `${lang}: Tab reaches the menu button`).toBe(true)
          await page.keyboard.press('Enter')
          const open = await header(page)
          expect(open.open).toBe(true)
          expect(open.hrefs).toEqual(ENTRIES[role])
          expect(open.visible).toBe(ENTRIES[role].length)
          expect(open.current).toEqual(['/dashboard/payments'])
          expect(open.mark).toEqual(
            rtl ? { left: '0px', right: '4px' } : { left: '4px', right: '0px' },
          )
          expect(await page.locator('nav.main button.link').isVisible()).toBe(true)
          expect(await page.locator('.menu-panel nav.lang a').count()).toBe(3)
          expect(await overflow(page), `${lang}: open menu inside the viewport`).toEqual([])
          expect(await axeViolations(page, { impact: 'any' }), `${lang}: open`).toEqual([])
          await keepScreenshot(page, `menu/${role}-${lang}-open-360`)
          await page.keyboard.press('Escape')
          const escaped = await header(page)
          expect(escaped.open).toBe(false)
          expect(escaped.focused).toBe(true)
          await page.keyboard.press('Space')
          expect((await header(page)).open).toBe(true)
          // A tap outside closes it.
          await page.locator('header .where').click()
          expect((await header(page)).open).toBe(false)

          // A desktop: no menu button, every entry visible, current one marked.
          await page.setViewportSize(DESK)
          const desk = await header(page)
          expect(desk.button.visible).toBe(false)
          expect(desk.visible).toBe(ENTRIES[role].length)
          expect(desk.current).toEqual(['/dashboard/payments'])
          expect(await page.locator('nav.main button.link').isVisible()).toBe(true)
          if (lang === languages[0])
            expect(await axeViolations(page, { impact: 'any' }), `${lang}: desktop`).toEqual([])
          await page.setViewportSize(PHONE)
        }
        expect(problems).toEqual([])
      } finally {
        page.off('console', onConsole)
      }
    }, 60_000)
  }

  it('opens and closes without script, with Enter and a tap', async () => {
    const page = await phoneOf('cashier', false)
    await page.goto(`${paylinks.url}/dashboard/till/report?lang=en`)
    const summary = page.locator('details.menu > summary')
    const till = page.locator('nav.main a[href="/dashboard/till"]')
    expect(await till.isVisible()).toBe(false)
    await summary.focus()
    await page.keyboard.press('Enter')
    expect(await till.isVisible()).toBe(true)
    expect(await till.getAttribute('aria-current')).toBe('page')
    await summary.click()
    expect(await till.isVisible()).toBe(false)
  })
})
