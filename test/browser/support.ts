/**
 * Chromium for the customer-page tests: Debian's /usr/bin/chromium through playwright-core, a
 * phone-sized context that records every request leaving the loopback host, axe-core, CSP
 * violation tracking and, when SCREENSHOTS names a folder, screenshots as <lang>/<page>.png in it.
 */
import { mkdirSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core'
import type { Language } from '../../src/config.js'
import { getPaymentByReceiptId } from '../../src/data/payments.js'
import { TEST_OTP } from '../../src/simulator/index.js'
import { submitCheckout } from '../flows/support.js'
import type { Paylinks } from '../support/harness.js'

export {
  axeViolations,
  CHROMIUM,
  closeContexts,
  describeInChromium,
  launchChromium,
  openPage,
  readPage,
} from '../support/chromium.js'

import { keepScreenshot, openPage } from '../support/chromium.js'
export const LANGUAGES: readonly Language[] = ['ar', 'fr', 'en']

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..')

let ipCounter = 0
/** A distinct client address per simulated customer. */
export function nextIp(): string {
  ipCounter += 1
  return `10.0.${Math.floor(ipCounter / 250)}.${(ipCounter % 250) + 1}`
}

/** A phone's browser whose every request is checked: anything off 127.0.0.1 is blocked and recorded. */
export interface Phone {
  context: BrowserContext
  page: Page
  /** URLs of requests that tried to leave the machine. */
  outside: string[]
  /** Content-Security-Policy violations the page reported. */
  cspViolations: string[]
  /** Done with this phone: it is wiped and kept for the next test (or closed if it cannot be). */
  close(): Promise<void>
}

interface PhoneOptions {
  javaScript?: boolean
  locale?: string
}

/** Addresses that never leave the machine, besides 127.0.0.1. */
const LOCAL_SCHEMES = new Set(['file:', 'data:', 'blob:'])

/** What each phone records, by its kept page (a phone put down and taken again starts afresh). */
const records = new WeakMap<Page, { outside: string[]; cspViolations: string[] }>()

/**
 * Opens a 390×844 touch phone (one an earlier test put down, wiped, if there is one: see
 * `openPage`); `javaScript: false` proves a page works without script. Each phone is a new
 * customer: its own address, no cookies. Requests are watched, not intercepted: routing every
 * request through the DevTools protocol cost more than loading the page, and turned off the HTTP
 * cache a phone has.
 */
export async function openPhone(browser: Browser, options: PhoneOptions = {}): Promise<Phone> {
  const kept = await openPage(
    browser,
    {
      viewport: { width: 390, height: 844 },
      deviceScaleFactor: 2,
      isMobile: true,
      hasTouch: true,
      javaScriptEnabled: options.javaScript ?? true,
      locale: options.locale ?? 'en-GB',
      acceptDownloads: true,
    },
    async ({ context, page }) => {
      context.on('request', (request) => {
        const url = new URL(request.url())
        if (url.hostname === '127.0.0.1' || LOCAL_SCHEMES.has(url.protocol)) return
        records.get(page)?.outside.push(url.href)
      })
      page.on('console', (message) => {
        const text = message.text()
        if (/Content[ -]Security[ -]Policy/i.test(text)) records.get(page)?.cspViolations.push(text)
      })
    },
  )
  const record = { outside: [] as string[], cspViolations: [] as string[] }
  records.set(kept.page, record)
  // Each phone is its own customer for the checkout rate limit (the harness reads this header).
  await kept.page.setExtraHTTPHeaders({ 'x-test-ip': nextIp() })
  return { ...kept, ...record }
}

/** Keeps a full-page screenshot as <lang>/<name>.png when SCREENSHOTS names a folder. */
export const screenshot = (page: Page, lang: Language, name: string): Promise<void> =>
  keepScreenshot(page, `${lang}/${name}`)

/** Where a test keeps a file a customer downloaded: test-output/downloads/<lang>/<name>. */
export function downloadPath(lang: Language, name: string): string {
  const dir = join(ROOT, 'test-output', 'downloads', lang)
  mkdirSync(dir, { recursive: true })
  return join(dir, name)
}

/** The customer's details, typed into the checkout form. */
export const CUSTOMER = { name: 'Amina Benali', phone: '0550123456', email: 'amina@example.dz' }

/** Fills the checkout form as a customer would and presses the pay button. */
export async function fillCheckoutAndPay(page: Page, amount?: string): Promise<void> {
  if (amount !== undefined) await page.locator('#amount').fill(amount)
  await page.locator('#name').fill(CUSTOMER.name)
  await page.locator('#phone').fill(CUSTOMER.phone)
  await page.locator('#email').fill(CUSTOMER.email)
  await page.locator('input[name=terms]').check()
  await page.locator('button.pay').click()
}

/** On the simulator's card page: types a test card and submits it, landing on the OTP step. */
export async function enterCard(
  page: Page,
  card: { number: string; expiry: string; cvv: string },
): Promise<void> {
  await page.locator('#pan').fill(card.number)
  await page.locator('#expiry').fill(card.expiry)
  await page.locator('#cvv').fill(card.cvv)
  await page.locator('form[action*="/card"] button[type=submit]').click()
  await page.locator('#otp').waitFor()
}

/** On the OTP step: types a code (the right one unless given) and confirms. */
export async function enterOtp(page: Page, otp: string = TEST_OTP): Promise<void> {
  await page.locator('#otp').fill(otp)
  await page.locator('form[action*="/otp"] button[type=submit]').click()
}

/** True when the page's origin is Paylinks'. */
export function onPaylinks(page: Page, paylinksUrl: string): boolean {
  return new URL(page.url()).origin === new URL(paylinksUrl).origin
}

/** Starts a payment without a browser (another customer) and returns its pending transaction. */
export async function startPendingPayment(
  p: Paylinks,
  slug: string,
  fields: Record<string, string> = {},
) {
  const res = await submitCheckout(p, slug, fields, { 'x-test-ip': nextIp() })
  if (res.status !== 303) throw new Error(`checkout answered ${res.status}, not 303`)
  const location = res.headers.get('location') ?? ''
  const tx = [...p.simulator.state.transactions.values()].find((t) => location.includes(t.orderId))
  const receiptId = new URL(tx?.returnUrl ?? 'http://x/').pathname.split('/').pop() ?? ''
  const payment = await getPaymentByReceiptId(p.deps.db, receiptId)
  if (!tx || !payment) throw new Error(`no transaction or payment for ${location}`)
  return { tx, payment, receiptId }
}

/** The text a customer reads in an element (rendered, so hidden parts are left out). */
export function textOf(locator: Locator): Promise<string> {
  return locator.innerText()
}
