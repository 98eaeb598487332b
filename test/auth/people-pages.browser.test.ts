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

interface Step {
  name: string
  go(page: Page, lang: Language): Promise<unknown>
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
    name: 'invite',
    go: (page, lang) => page.goto(url(`/dashboard/invite/${inviteTokens.get(lang)}`)),
  },
  {
    name: 'invite-errors',
    go: async (page, lang) => {
      await page.goto(url(`/dashboard/invite/${inviteTokens.get(lang)}`))
      await submit(page, 'form[action^="/dashboard/invite/"]', { name: '', password: 'short' })
    },
  },
  { name: 'invite-gone', go: (page) => page.goto(url('/dashboard/invite/none')) },
  {
    name: 'login-wrong-password',
    go: async (page, lang) => {
      await page.goto(url('/dashboard/login'))
      await submit(page, 'form[data-form=password]', {
        email: ownerEmail(lang),
        password: 'nope nope nope',
      })
    },
  },
]

const SIGNED_IN: Step[] = [
  { name: 'people', go: (page) => page.goto(url('/dashboard/people')) },
  {
    name: 'people-invited',
    go: async (page) => {
      await page.goto(url('/dashboard/people'))
      await submit(page, 'form[action="/dashboard/people/invites"]', {
        email: `new.${LONG_EMAIL}`,
        role: 'manager',
      })
    },
  },
  {
    name: 'people-errors',
    go: async (page) => {
      await page.goto(url('/dashboard/people'))
      await submit(page, 'form[action="/dashboard/people/invites"]', { email: 'not an e-mail' })
    },
  },
  { name: 'account', go: (page) => page.goto(url('/dashboard/account')) },
  {
    name: 'account-errors',
    go: async (page) => {
      await page.goto(url('/dashboard/account'))
      await submit(page, 'form[action="/dashboard/account/password"]', {
        current: 'wrong wrong wrong',
        password: 'x',
      })
    },
  },
  { name: 'two-factor-setup', go: (page) => page.goto(url('/dashboard/account/two-factor')) },
  {
    name: 'recovery-codes',
    go: async (page) => {
      await page.goto(url('/dashboard/account/two-factor'))
      const secret = (await page.locator('[data-secret=totp]').innerText()).replace(/\s+/g, '')
      await submit(page, 'form[action="/dashboard/account/two-factor"]', {
        code: totp(secret, Date.now()),
      })
      expect(await page.locator('[data-recovery-codes] li').count()).toBe(10)
    },
  },
  { name: 'account-two-factor-on', go: (page) => page.goto(url('/dashboard/account')) },
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
      const check = async (step: Step) => {
        await step.go(page, lang)
        expect(await page.getAttribute('html', 'lang'), step.name).toBe(lang)
        const found = [...(await overflow(page)), ...(await violations(page))]
        if (found.length > 0) problems[step.name] = found
        await shoot(page, lang, step.name)
      }
      try {
        await page.goto(url('/dashboard/login'))
        await shoot(page, lang, 'login')
        for (const step of SIGNED_OUT) await check(step)
        await page.goto(url('/dashboard/login'))
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
          go: () =>
            submit(page, 'form[data-form=password]', {
              email: ownerEmail(lang),
              password: PASSWORD,
            }),
        })
        await check({
          name: 'login-code-wrong',
          go: () => submit(page, 'form[action="/dashboard/login/code"]', { code: '12' }),
        })
        expect(problems).toEqual({})
      } finally {
        await context.close()
      }
    }, 120_000)
  }
})
