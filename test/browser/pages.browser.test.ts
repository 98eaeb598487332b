/**
 * Every customer page Paylinks shows outside a card payment, in each language, in Chromium on a
 * phone: the right words and direction, no serious accessibility violation, no request leaving
 * the site, no CSP violation, and a screenshot for a person to look at.
 */
import { createHash } from 'node:crypto'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { Language } from '../../src/config.js'
import { createCheckout } from '../../src/data/checkouts.js'
import { updateLink } from '../../src/data/links.js'
import { getPaymentById } from '../../src/data/payments.js'
import { setProductImage } from '../../src/data/products.js'
import { createPromoCode } from '../../src/data/promo-codes.js'
import { setSetting } from '../../src/data/settings.js'
import { CUSTOMER_FEE_PERCENT_KEY } from '../../src/domain/customer-fee.js'
import type { MessageKey } from '../../src/i18n/index.js'
import { formatAmount, formatDateTime, MESSAGES } from '../../src/i18n/index.js'
import { api } from '../api/helpers.js'
import { type Paylinks, startPaylinks } from '../support/harness.js'
import { pngLogo } from '../support/images.js'
import { makeLink } from '../support/links.js'
import { overflow } from '../support/phone-overflow.js'
import {
  axeViolations,
  closeContexts,
  describeInChromium,
  fillCheckoutAndPay,
  LANGUAGES,
  launchChromium,
  openPhone,
  type Phone,
  readPage,
  screenshot,
  startPendingPayment,
  textOf,
} from './support.js'

const TITLES: Record<Language, string> = {
  ar: 'اشتراك شهري في النادي الرياضي',
  fr: 'Abonnement mensuel au club de sport',
  en: 'Monthly sports club membership',
}

// A shop's questions in the page's language: a wilaya, an address, a size, a number.
const FIELD_LABELS: Record<Language, [string, string, string, string]> = {
  ar: ['ولاية التوصيل', 'عنوان التوصيل', 'المقاس', 'عدد القطع'],
  fr: ['Wilaya de livraison', 'Adresse de livraison', 'Taille', 'Nombre de pièces'],
  en: ['Delivery wilaya', 'Delivery address', 'Size', 'Number of pieces'],
}

let browser: Browser
let p: Paylinks

/** A customer page: how to reach it, the status it answers, the title it must show. */
interface PageCase {
  name: string
  status: number
  title: MessageKey | ((lang: Language) => string)
  /** Prepares the page and returns its path. */
  open(lang: Language, phone: Phone): Promise<string>
  /** The page is reached by submitting the checkout (the path is then the checkout's). */
  submit?: boolean
  /** More to check and capture once the page passed the common checks. */
  more?(lang: Language, phone: Phone): Promise<void>
  /** A case that reads its page at more widths needs more than the suite's time. */
  timeoutMs?: number
}

/** The cart case's product whose quantity the customer chooses. */
let cartRug = ''

/** A product's picture, as the dashboard stores one. */
function productPhoto() {
  const bytes = pngLogo(96, 96)
  const sha256 = createHash('sha256').update(bytes).digest('hex')
  return { sha256, contentType: 'image/png', bytes, width: 96, height: 96 }
}

/** When the invoice-paid case's payment was paid. */
let invoicePaidAt: number | null = null

const link = (lang: Language, extra: Record<string, unknown> = {}) =>
  makeLink(p, { title: TITLES[lang], amount: 1500, language: lang, ...extra })

const CASES: PageCase[] = [
  {
    name: 'checkout',
    status: 200,
    title: (lang) => TITLES[lang],
    open: async (lang) => `/l/${(await link(lang, { description: MESSAGES[lang].payHint })).slug}`,
  },
  {
    name: 'checkout-items',
    status: 200,
    title: (lang) => TITLES[lang],
    open: async (lang) => {
      const items = [
        { description: `${TITLES[lang]} — 1`, quantity: 2, unit_price: 1250.5 },
        { description: `${TITLES[lang]} — 2`, quantity: 1, unit_price: 12000 },
      ]
      const made = await makeLink(p, { title: TITLES[lang], invoice_items: items, language: lang })
      return `/l/${made.slug}`
    },
  },
  {
    // A shop's order: its reference, lines, the customer's details, the way back to the shop; read
    // on a small phone (360 px) and a desktop (1280 px) as well as the walk's phone.
    name: 'checkout-order',
    status: 200,
    timeoutMs: 60_000,
    title: (lang) => TITLES[lang],
    open: async (lang) => {
      const now = Date.now()
      const { link: made } = await createCheckout(
        p.deps.db,
        {
          amount: 1_452_000,
          lineItems: [
            { name: `${TITLES[lang]} — 1`, quantity: 3, unitPrice: 125_000 },
            { name: `${TITLES[lang]} — 2`, quantity: 1, unitPrice: 1_077_000 },
          ],
          reference: 'CMD-2026-11-28-1042',
          metadata: {},
          customerName: 'Amina Benali',
          customerPhone: '0550123456',
          customerEmail: 'amina.benali@example.dz',
          successUrl: 'https://shop.example/merci',
          cancelUrl: 'https://shop.example/panier',
          language: lang,
          expiresAt: now + 30 * 60_000,
          title: TITLES[lang],
        },
        now,
      )
      return `/l/${made.slug}`
    },
    more: async (lang, { page }) => {
      expect(await textOf(page.locator('main'))).toContain('CMD-2026-11-28-1042')
      expect(await page.locator('#name').inputValue()).toBe('Amina Benali')
      for (const width of [360, 1280]) {
        await page.setViewportSize({ width, height: width === 360 ? 780 : 900 })
        expect(await overflow(page)).toEqual([])
        expect(await axeViolations(page, { impact: 'any' })).toEqual([])
        await screenshot(page, lang, `checkout-order-${width}`)
      }
    },
  },
  {
    // A link's questions after the customer's details: the required wilaya left unchosen is
    // refused by its field in the page's language, the answers given kept; read at 360 and 1280 px.
    name: 'checkout-fields-errors',
    status: 400,
    title: 'fixErrors',
    submit: true,
    timeoutMs: 60_000,
    open: async (lang, phone) => {
      const made = await makeLink(p, {
        title: TITLES[lang],
        amount: 2500,
        language: lang,
        custom_fields: [
          { key: 'wilaya', label: FIELD_LABELS[lang][0], type: 'wilaya', required: true },
          { key: 'address', label: FIELD_LABELS[lang][1], type: 'address', required: true },
          { key: 'size', label: FIELD_LABELS[lang][2], type: 'select', options: ['S', 'M', 'L'] },
          { key: 'count', label: FIELD_LABELS[lang][3], type: 'number' },
        ],
      })
      const path = `/l/${made.slug}`
      await phone.page.goto(`${p.url}${path}?cf_size=M`)
      await phone.page.locator('#cf-address').fill('12 rue Didouche Mourad\nAlger')
      await phone.page.locator('#cf-count').fill('2')
      await fillCheckoutAndPay(phone.page)
      return path
    },
    more: async (lang, { page }) => {
      expect(await page.locator('#cf-wilaya-err').textContent()).toBe(MESSAGES[lang].errRequired)
      expect(await page.locator('#cf-wilaya').getAttribute('aria-invalid')).toBe('true')
      expect(await page.locator('#cf-wilaya option').count()).toBe(59)
      expect(await page.locator('#cf-wilaya option[value="16"]').textContent()).toBe(
        lang === 'ar' ? '16 — الجزائر' : '16 — Alger',
      )
      expect(await page.locator('#cf-address').inputValue()).toBe('12 rue Didouche Mourad\nAlger')
      expect(await page.locator('#cf-size').inputValue()).toBe('M')
      expect(await page.locator('#cf-count').getAttribute('inputmode')).toBe('decimal')
      expect(await textOf(page.locator('label[for="cf-count"]'))).toContain(
        MESSAGES[lang].fieldOptional,
      )
      for (const width of [360, 1280]) {
        await page.setViewportSize({ width, height: width === 360 ? 780 : 900 })
        expect(await overflow(page)).toEqual([])
        expect(await axeViolations(page, { impact: 'any' })).toEqual([])
        await screenshot(page, lang, `checkout-fields-errors-${width}`)
      }
    },
  },
  {
    // A cart: a product with a picture and a quantity to choose (prefilled from the query), a
    // fixed line, a product sold out; read at 360 px and 1280 px.
    name: 'checkout-cart',
    status: 200,
    timeoutMs: 60_000,
    title: (lang) => TITLES[lang],
    open: async (lang) => {
      const product = async (json: Record<string, unknown>) =>
        (await api(p, 'POST', '/api/v1/products', { json })).body.id as string
      const rug = await product({
        name: `${TITLES[lang]} — 1`,
        price: 4885,
        stock: 4,
        sku: `TAP-${lang}`,
      })
      await setProductImage(p.deps.db, rug, productPhoto(), Date.now())
      const cushion = await product({ name: `${TITLES[lang]} — 2`, price: 1500 })
      const dish = await product({ name: `${TITLES[lang]} — 3`, price: 3200, stock: 0 })
      const made = await makeLink(p, {
        title: TITLES[lang],
        language: lang,
        line_items: [
          { product_id: rug, quantity: 1, adjustable_quantity: { min: 1, max: 3 } },
          { product_id: cushion, quantity: 2 },
          { product_id: dish, quantity: 0, adjustable_quantity: { min: 0, max: 2 } },
        ],
      })
      cartRug = rug
      return `/l/${made.slug}?qty_${rug}=2`
    },
    more: async (lang, { page }) => {
      const qty = page.locator(`#qty_${cartRug}`)
      expect(await qty.inputValue()).toBe('2')
      expect(await qty.getAttribute('data-unit-price')).toBe('488500')
      expect(await page.locator('[data-line-total="300000"]').count()).toBe(1)
      expect(await textOf(page.locator('main'))).toContain(MESSAGES[lang].cartSoldOut)
      expect(await page.locator('.cart img').count()).toBe(1)
      for (const width of [360, 1280]) {
        await page.setViewportSize({ width, height: width === 360 ? 780 : 900 })
        expect(await overflow(page)).toEqual([])
        expect(await axeViolations(page, { impact: 'any' })).toEqual([])
        await screenshot(page, lang, `checkout-cart-${width}`)
      }
    },
  },
  {
    // The order summary of a link taking promo codes whose customer pays a 2.5 % fee: the total
    // follows the typed amount, "Apply" asks for the code's terms without a reload, and the Pay
    // button says the total; at 360 px and 1280 px.
    name: 'checkout-promo-fee',
    status: 200,
    timeoutMs: 60_000,
    title: (lang) => TITLES[lang],
    open: async (lang) => {
      await setSetting(p.deps.db, CUSTOMER_FEE_PERCENT_KEY, '250', Date.now())
      const made = await createPromoCode(
        p.deps.db,
        {
          code: `RAMADAN-${lang}`,
          percentOff: 10,
          amountOff: null,
          minAmount: null,
          maxRedemptions: null,
          expiresAt: null,
          active: true,
        },
        Date.now(),
      )
      if (!made.ok) throw new Error(made.kind)
      const promo = await link(lang, {
        amount: null,
        amount_min: 100,
        allow_promo_codes: true,
        customer_fee: true,
      })
      return `/l/${promo.slug}`
    },
    more: async (lang, { page }) => {
      const out = (name: string) => textOf(page.locator(`[data-out="${name}"]`))
      await page.locator('#amount').fill('2000')
      // 2 000 DA and 2.5 % of it: 2 050 DA, before any code.
      expect(await out('total')).toBe(formatAmount(205_000, lang))
      await page.locator('#promo_code').fill(`ramadan-${lang}`)
      await page.locator('button[name="apply_promo"]').click()
      await page.locator('[data-out="discount"]').waitFor({ state: 'visible' })
      // 200 DA off, then 2.5 % of 1 800 DA: 45 DA; 1 845 DA in all.
      expect(await out('discount')).toBe(`−${formatAmount(20_000, lang)}`)
      expect(await out('fee')).toBe(formatAmount(4_500, lang))
      expect(await out('total')).toBe(formatAmount(184_500, lang))
      expect(await textOf(page.locator('button.pay'))).toContain(formatAmount(184_500, lang))
      expect(await page.locator('#promo-status').textContent()).toContain(`RAMADAN-${lang}`)
      for (const width of [360, 1280]) {
        await page.setViewportSize({ width, height: width === 360 ? 780 : 900 })
        expect(await overflow(page)).toEqual([])
        expect(await axeViolations(page, { impact: 'any' })).toEqual([])
        await screenshot(page, lang, `checkout-promo-fee-${width}`)
      }
      // An unknown code: said beside the field, the discount gone.
      await page.locator('#promo_code').fill('NOPE-NOPE')
      await page.locator('button[name="apply_promo"]').click()
      await page.locator('#promo_code-err').waitFor()
      expect(await textOf(page.locator('#promo_code-err'))).toBe(MESSAGES[lang].errPromoUnknown)
      expect(await out('total')).toBe(formatAmount(205_000, lang))
      expect(await axeViolations(page, { impact: 'any' })).toEqual([])
      await screenshot(page, lang, 'checkout-promo-fee-refused')
    },
  },
  {
    name: 'checkout-open-amount',
    status: 200,
    title: (lang) => TITLES[lang],
    open: async (lang) => {
      const made = await makeLink(p, {
        title: TITLES[lang],
        amount_min: 500,
        amount_max: 20000,
        language: lang,
      })
      return `/l/${made.slug}?name=Karim%20B&ref=CMD-9`
    },
  },
  {
    // A deposit link with one part paid: the total, paid so far, the balance, the part to pay now
    // (prefilled with the balance), read at 360 px and 1280 px.
    name: 'checkout-deposit',
    status: 200,
    timeoutMs: 60_000,
    title: (lang) => TITLES[lang],
    open: async (lang) => {
      const made = await link(lang, { amount: 30000, allow_partial: { min_amount: 10000 } })
      const { tx } = await startPendingPayment(p, made.slug, { amount: '12500' })
      await p.simulator.completePayment(tx.cibTransactionId, 'approved')
      await p.settle()
      return `/l/${made.slug}`
    },
    more: async (lang, { page }) => {
      expect(await page.locator('#amount').inputValue()).toBe('17500')
      const shown = await textOf(page.locator('main'))
      for (const key of ['depositTotal', 'depositPaid', 'depositBalance'] as const)
        expect(shown).toContain(MESSAGES[lang][key])
      // The Pay button says the part as it is typed.
      await page.locator('#amount').fill('10000')
      expect(await textOf(page.locator('button.pay'))).toMatch(/10[\s\u00a0\u202f.,]?000/)
      await page.locator('#amount').fill('17500')
      for (const width of [360, 1280]) {
        await page.setViewportSize({ width, height: width === 360 ? 780 : 900 })
        expect(await overflow(page)).toEqual([])
        expect(await axeViolations(page, { impact: 'any' })).toEqual([])
        await screenshot(page, lang, `checkout-deposit-${width}`)
      }
    },
  },
  {
    name: 'checkout-errors',
    status: 400,
    title: 'fixErrors',
    submit: true,
    open: async (lang, phone) => {
      const path = `/l/${(await link(lang, { amount: null, amount_min: 100 })).slug}`
      await phone.page.goto(p.url + path)
      await phone.page.locator('#amount').fill('12,345')
      await phone.page.locator('#email').fill('not-an-email')
      await phone.page.locator('button.pay').click()
      return path
    },
  },
  {
    name: 'in-progress',
    status: 409,
    title: 'inProgressTitle',
    submit: true,
    open: async (lang, phone) => {
      const made = await link(lang, { max_payments: 1 })
      await phone.page.goto(`${p.url}/l/${made.slug}`)
      // Someone else starts paying while this customer fills the form.
      await startPendingPayment(p, made.slug)
      await fillCheckoutAndPay(phone.page)
      return `/l/${made.slug}`
    },
  },
  {
    name: 'inactive',
    status: 403,
    title: 'linkInactiveTitle',
    open: async (lang) => `/l/${(await link(lang, { active: false })).slug}`,
  },
  {
    name: 'expired',
    status: 410,
    title: 'linkExpiredTitle',
    open: async (lang) => {
      const made = await link(lang)
      await updateLink(p.deps.db, made.id, { expiresAt: Date.now() - 60_000 }, Date.now())
      return `/l/${made.slug}`
    },
  },
  {
    name: 'completed',
    status: 410,
    title: 'linkCompletedTitle',
    open: async (lang) => {
      const made = await link(lang, { max_payments: 1 })
      const { tx } = await startPendingPayment(p, made.slug)
      await p.simulator.completePayment(tx.cibTransactionId, 'approved')
      await p.settle()
      return `/l/${made.slug}`
    },
  },
  {
    name: 'invoice-paid',
    status: 410,
    title: 'invoicePaidTitle',
    open: async (lang) => {
      const items = [{ description: TITLES[lang], quantity: 2, unit_price: 1250.5 }]
      const made = await makeLink(p, { title: TITLES[lang], invoice_items: items, language: lang })
      const { tx, payment } = await startPendingPayment(p, made.slug)
      await p.simulator.completePayment(tx.cibTransactionId, 'approved')
      await p.settle()
      invoicePaidAt = (await getPaymentById(p.deps.db, payment.id))?.paidAt ?? null
      return `/l/${made.slug}`
    },
    more: async (lang, { page }) => {
      // The date it was paid, as the receipt shows it, in place of the form.
      expect(await page.locator('form').count()).toBe(0)
      expect(invoicePaidAt).not.toBeNull()
      const date = formatDateTime(invoicePaidAt ?? 0, lang)
      expect(await textOf(page.locator('main'))).toContain(date)
    },
  },
  {
    name: 'not-found',
    status: 404,
    title: 'notFoundTitle',
    open: async (lang) => `/l/NoSuchLink42?lang=${lang}`,
  },
  {
    name: 'gateway-error',
    status: 502,
    title: 'gatewayErrorTitle',
    submit: true,
    open: async (lang, phone) => {
      const path = `/l/${(await link(lang)).slug}`
      await phone.page.goto(p.url + path)
      p.simulator.faults.set({
        endpoints: { 'make-cib-transaction': { status5xx: 503, times: 1 } },
      })
      await fillCheckoutAndPay(phone.page)
      return path
    },
  },
  {
    name: 'pending',
    status: 200,
    title: 'pendingTitle',
    open: async (lang) => {
      const { receiptId } = await startPendingPayment(p, (await link(lang)).slug)
      return `/r/${receiptId}`
    },
  },
  {
    name: 'poster',
    status: 200,
    title: 'scanToPay',
    open: async (lang) => `/l/${(await link(lang)).slug}/poster`,
    more: async (lang, { page }) => {
      // How the poster looks on an A5 sheet (148 × 210 mm at 96 dpi).
      await page.setViewportSize({ width: 559, height: 794 })
      await page.emulateMedia({ media: 'print' })
      expect(await page.locator('header.top').isVisible()).toBe(false)
      expect(await page.locator('.poster .qr svg').isVisible()).toBe(true)
      await screenshot(page, lang, 'poster-print')
    },
  },
  {
    name: 'terms',
    status: 200,
    title: 'termsTitle',
    open: async (lang) => `/terms?lang=${lang}`,
  },
]

describeInChromium('customer pages in Chromium', () => {
  beforeAll(async () => {
    browser = await launchChromium()
    p = await startPaylinks({ http: true })
  })
  afterAll(async () => {
    await closeContexts(browser)
    await p?.close()
  })

  for (const lang of LANGUAGES) {
    for (const page of CASES) {
      it(
        `renders the ${page.name} page in ${lang}, accessible and self-contained`,
        async () => {
          const phone = await openPhone(browser)
          try {
            const path = await page.open(lang, phone)
            let status: number | undefined
            if (page.submit) {
              await phone.page.waitForLoadState('load')
              status = await phone.page.evaluate(
                () =>
                  (performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming)
                    .responseStatus,
              )
            } else {
              status = (await phone.page.goto(p.url + path))?.status()
            }
            expect(status).toBe(page.status)
            // Read in the page's own world: the checks below act on nothing (readPage).
            const shown = await readPage(phone.page, ['main', 'body'])
            expect(shown.lang).toBe(lang)
            expect(shown.dir).toBe(lang === 'ar' ? 'rtl' : 'ltr')
            const title =
              typeof page.title === 'function' ? page.title(lang) : MESSAGES[lang][page.title]
            expect(shown.text.main).toContain(title)
            expect(shown.text.body).toContain('3020')
            // Every impact: a moderate one (a line outside every landmark) is still one to fix.
            expect(await axeViolations(phone.page, { impact: 'any' })).toEqual([])
            await screenshot(phone.page, lang, page.name)
            await page.more?.(lang, phone)
            expect(phone.outside).toEqual([])
            expect(phone.cspViolations).toEqual([])
          } finally {
            await phone.close()
          }
        },
        page.timeoutMs,
      )
    }
  }
})
