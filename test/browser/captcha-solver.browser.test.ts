/**
 * The checkout page's own SHA-256 proof-of-work solver, in Chromium on the real page: the
 * challenge the page carries is replaced by one whose number is chosen (the worst case, a salt
 * longer than one SHA-256 block), which a real challenge cannot be made to have; the payload the
 * page puts in the form must then pass ALTCHA's own verification. A page whose challenge has
 * expired fetches one.
 */
import { createChallenge, verifySolution } from 'altcha-lib/v1'
import type { Browser, Page, Route } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { MESSAGES } from '../../src/i18n/index.js'
import { type Paylinks, startPaylinks } from '../support/harness.js'
import { makeLink } from '../support/links.js'
import { closeContexts, describeInChromium, launchChromium, openPhone, textOf } from './support.js'

const KEY = 'captcha-solver-test-key'
let browser: Browser
let p: Paylinks

/** A challenge as the page's attribute carries it. */
const attribute = (challenge: unknown) =>
  JSON.stringify(challenge).replace(/&/g, '&amp;').replace(/"/g, '&quot;')

/**
 * Opens a new link's checkout carrying `own` as its challenge instead of the one it was sent
 * with, and its challenge fetches answered by `answer`.
 */
async function checkoutWith(page: Page, own: unknown, answer: (route: Route) => void) {
  const link = await makeLink(p, { title: 'Solver', amount: 700, language: 'en' })
  await page.route(`${p.url}/l/${link.slug}/challenge`, answer)
  await page.route(`${p.url}/l/${link.slug}`, async (route) => {
    const res = await route.fetch()
    const html = (await res.text()).replace(
      /data-challenge="[^"]*"/,
      `data-challenge="${attribute(own)}"`,
    )
    await route.fulfill({ response: res, body: html })
  })
  await page.goto(`${p.url}/l/${link.slug}`)
}

/** A challenge whose expiry has passed, as a page left open for an hour carries. */
async function expiredChallenge() {
  return createChallenge({
    hmacKey: KEY,
    maxnumber: 20_000,
    expires: new Date(Date.now() - 60_000),
  })
}

/** The status line once the solver has finished, either way. */
async function finished(page: Page): Promise<string> {
  await expect
    .poll(() => textOf(page.locator('#altcha [role=status]')), { timeout: 30_000 })
    .not.toBe(MESSAGES.en.captchaChecking)
  return textOf(page.locator('#altcha [role=status]'))
}

describeInChromium('the checkout captcha solver', () => {
  beforeAll(async () => {
    browser = await launchChromium()
    p = await startPaylinks({ http: true, env: { CAPTCHA: 'altcha' } })
  })
  afterAll(async () => {
    await closeContexts(browser)
    await p?.close()
  })

  for (const [name, options] of [
    ['whose number is the largest allowed (many pauses on the way)', { number: 20_000 }],
    ['whose salt makes the hashed text longer than one SHA-256 block', { saltLength: 60 }],
  ] as const) {
    it(`solves a challenge ${name} with a payload ALTCHA verifies`, async () => {
      const phone = await openPhone(browser)
      try {
        const challenge = await createChallenge({
          hmacKey: KEY,
          maxnumber: 20_000,
          number: 'number' in options ? options.number : 12_345,
          expires: new Date(Date.now() + 10 * 60_000),
          ...('saltLength' in options ? { saltLength: options.saltLength } : {}),
        })
        await checkoutWith(phone.page, challenge, (route) => route.abort('connectionfailed'))
        expect(await finished(phone.page)).toBe(MESSAGES.en.captchaDone)
        expect(await phone.page.locator('button.pay').isEnabled()).toBe(true)
        const payload = await phone.page.locator('input[name=altcha]').inputValue()
        const solved = JSON.parse(atob(payload)) as { number: number }
        expect(solved.number).toBe('number' in options ? options.number : 12_345)
        expect(await verifySolution(payload, KEY, false)).toBe(true)
        expect(phone.cspViolations).toEqual([])
      } finally {
        await phone.close()
      }
    })
  }

  it('fetches a challenge when the page carries an expired one, and solves it', async () => {
    const phone = await openPhone(browser)
    try {
      const fetched = await createChallenge({ hmacKey: KEY, maxnumber: 20_000, number: 777 })
      let asked = 0
      await checkoutWith(phone.page, await expiredChallenge(), (route) => {
        asked += 1
        return route.fulfill({ json: fetched })
      })
      expect(await finished(phone.page)).toBe(MESSAGES.en.captchaDone)
      expect(asked).toBe(1)
      const payload = await phone.page.locator('input[name=altcha]').inputValue()
      expect(JSON.parse(atob(payload)).number).toBe(777)
    } finally {
      await phone.close()
    }
  })

  it('says it failed and still lets the customer press pay when no challenge arrives', async () => {
    const phone = await openPhone(browser)
    try {
      await checkoutWith(phone.page, await expiredChallenge(), (route) =>
        route.abort('connectionfailed'),
      )
      expect(await finished(phone.page)).toBe(MESSAGES.en.captchaFailed)
      expect(await phone.page.locator('button.pay').isEnabled()).toBe(true)
      expect(await phone.page.locator('input[name=altcha]').inputValue()).toBe('')
    } finally {
      await phone.close()
    }
  })
})
