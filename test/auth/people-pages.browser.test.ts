/**
 * The people, account, invitation and two-factor pages on a 360 px phone in Arabic, French and
 * English, with long names and e-mails: no sideways scrolling, nothing outside the viewport, no
 * axe-core violation.
 * Each language has its own owner, who walks the people and account pages, sets up two-factor
 * (the code computed here with node:crypto), signs out and walks the code page.
 *
 * SCREENSHOTS=/tmp/some-folder keeps full-page screenshots at 360 and 1280 px (test/support/chromium.ts).
 */
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { Language } from '../../src/config.js'
import { createInvite } from '../../src/data/invites.js'
import { signedIn } from '../dashboard/helpers.js'
import {
  axeViolations,
  closeContexts,
  describeInChromium,
  keepScreenshot,
  launchChromium,
  readPage,
} from '../support/chromium.js'
import { type Paylinks, startPaylinks } from '../support/harness.js'
import { overflow } from '../support/phone-overflow.js'
import { accept, invite, PASSWORD, totp } from './people-support.js'

const LANGUAGES: Language[] = ['ar', 'fr', 'en']
const PHONE = { width: 360, height: 740 }
const DESK = { width: 1280, height: 900 }
const LONG_EMAIL = 'amina.benali.commandes.boutique.constantine@exemple-tres-long-domaine.dz'
const LONG_NAME = 'عبد الرحمن بن عبد الله الطاهري القسنطيني'

let browser: Browser
let paylinks: Paylinks
const inviteTokens = new Map<Language, string>()
const ownerEmail = (lang: Language) => `owner-${lang}.${LONG_EMAIL}`

/**
 * One page of the walk: the address it opens and, for a state reached by acting on that page,
 * what to do there. A step that only acts goes on from wherever the last one left the page.
 */
interface Step {
  name: string
  path?(lang: Language): string
  act?(page: Page, lang: Language): Promise<unknown>
}

const url = (path: string) => `${paylinks.url}${path}`

/** Submits the form `selector` after filling `fields`, the browser's own checks off. */
async function submit(page: Page, selector: string, fields: Record<string, string>) {
  await page.locator(selector).evaluate((f: HTMLFormElement, values) => {
    for (const [name, value] of Object.entries(values)) {
      ;(f.elements.namedItem(name) as HTMLInputElement).value = value
    }
    f.noValidate = true
  }, fields)
  await Promise.all([
    page.waitForEvent('load'),
    page.locator(`${selector} button[type=submit]`).first().click(),
  ])
}

const SIGNED_OUT: Step[] = [
  {
    // First, from the sign-in page the walk starts on.
    name: 'login-wrong-password',
    path: () => '/dashboard/login',
    act: (page, lang) =>
      submit(page, 'form[data-form=password]', {
        email: ownerEmail(lang),
        password: 'nope nope nope',
      }),
  },
  { name: 'invite', path: (lang) => `/dashboard/invite/${inviteTokens.get(lang)}` },
  {
    name: 'invite-errors',
    path: (lang) => `/dashboard/invite/${inviteTokens.get(lang)}`,
    act: (page) =>
      submit(page, 'form[action^="/dashboard/invite/"]', { name: '', password: 'short' }),
  },
  { name: 'invite-gone', path: () => '/dashboard/invite/none' },
]

const SIGNED_IN: Step[] = [
  { name: 'people', path: () => '/dashboard/people' },
  {
    name: 'people-invited',
    path: () => '/dashboard/people',
    act: (page) =>
      submit(page, 'form[action="/dashboard/people/invites"]', {
        email: `new.${LONG_EMAIL}`,
        role: 'manager',
      }),
  },
  {
    name: 'people-errors',
    path: () => '/dashboard/people',
    act: (page) =>
      submit(page, 'form[action="/dashboard/people/invites"]', { email: 'not an e-mail' }),
  },
  { name: 'account', path: () => '/dashboard/account' },
  {
    name: 'account-errors',
    path: () => '/dashboard/account',
    act: (page) =>
      submit(page, 'form[action="/dashboard/account/password"]', {
        current: 'wrong wrong wrong',
        password: 'x',
      }),
  },
  { name: 'two-factor-setup', path: () => '/dashboard/account/two-factor' },
  {
    name: 'recovery-codes',
    path: () => '/dashboard/account/two-factor',
    act: async (page) => {
      const secret = (await page.locator('[data-secret=totp]').innerText()).replace(/\s+/g, '')
      await submit(page, 'form[action="/dashboard/account/two-factor"]', {
        code: totp(secret, Date.now()),
      })
      expect(await page.locator('[data-recovery-codes] li').count()).toBe(10)
    },
  },
  { name: 'account-two-factor-on', path: () => '/dashboard/account' },
]

/** axe-core's violations on the page, of any impact. */
const violations = (page: Page) => axeViolations(page, { impact: 'any' })

/** Keeps screenshots of the page at 360 and 1280 px when SCREENSHOTS names a folder. */
const shoot = (page: Page, lang: Language, name: string) =>
  keepScreenshot(page, `people/${lang}-${name}`, [PHONE, DESK])

describeInChromium('the people pages on a 360 px phone', () => {
  beforeAll(async () => {
    paylinks = await startPaylinks({ http: true })
    const admin = await signedIn(paylinks)
    for (const lang of LANGUAGES) {
      const { response } = await accept(
        paylinks,
        await invite(admin, ownerEmail(lang), 'owner'),
        LONG_NAME,
      )
      expect(response.status).toBe(303)
      const { token } = await createInvite(
        paylinks.deps.db,
        { email: `${lang}.${LONG_EMAIL}`, role: 'cashier', invitedBy: null },
        Date.now(),
      )
      inviteTokens.set(lang, token)
    }
    for (const role of ['manager', 'cashier', 'viewer']) {
      await accept(
        paylinks,
        await invite(admin, `${role}.${LONG_EMAIL}`, role),
        `${LONG_NAME} ${role}`,
      )
    }
    browser = await launchChromium()
  })
  afterAll(async () => {
    await closeContexts(browser)
    await paylinks?.close()
  })

  for (const lang of LANGUAGES) {
    it(`shows the people and sign-in pages in ${lang} without sideways scrolling`, async () => {
      const context = await browser.newContext({
        viewport: PHONE,
        locale: lang,
        isMobile: true,
        hasTouch: true,
        bypassCSP: true,
      })
      const page = await context.newPage()
      const problems: Record<string, string[]> = {}
      // The address the page shows as loaded and untouched. A step that acts on that very page
      // acts there instead of loading it again (each load costs Chromium a third of a second of
      // CPU, and the page would be the same).
      let shown: string | undefined
      const load = async (address: string) => {
        if (shown !== address) await page.goto(address)
        shown = address
      }
      const check = async (step: Step) => {
        if (step.path) {
          const address = url(step.path(lang))
          if (step.act) await load(address)
          else await page.goto(address)
          shown = address
        }
        if (step.act) {
          shown = undefined
          await step.act(page, lang)
        }
        expect((await readPage(page)).lang, step.name).toBe(lang)
        const found = [...(await overflow(page)), ...(await violations(page))]
        if (found.length > 0) problems[step.name] = found
        await shoot(page, lang, step.name)
      }
      try {
        await load(url('/dashboard/login'))
        await shoot(page, lang, 'login')
        for (const step of SIGNED_OUT) await check(step)
        await load(url('/dashboard/login'))
        await submit(page, 'form[data-form=password]', {
          email: ownerEmail(lang),
          password: PASSWORD,
        })
        expect(new URL(page.url()).pathname).toBe('/dashboard')
        for (const step of SIGNED_IN) await check(step)
        // Signed out (from the header's menu), signing in again asks for the code: that page too,
        // and a wrong code.
        await page.locator('details.menu > summary').click()
        await page.locator('nav.main form[action="/dashboard/logout"] button').click()
        await page.waitForURL((u) => u.pathname === '/dashboard/login')
        await check({
          name: 'login-code',
          act: () =>
            submit(page, 'form[data-form=password]', {
              email: ownerEmail(lang),
              password: PASSWORD,
            }),
        })
        await check({
          name: 'login-code-wrong',
          act: () => submit(page, 'form[action="/dashboard/login/code"]', { code: '12' }),
        })
        expect(problems).toEqual({})
      } finally {
        await context.close()
      }
    }, 120_000)
  }
})
