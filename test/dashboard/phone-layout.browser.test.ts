/**
 * Every dashboard page on a 360 px phone in Arabic, French and English, with awkward data (long
 * Arabic titles, long e-mails and addresses, payments of every status): the page never scrolls
 * sideways and no element sits outside the viewport. The pages are the list below; a test checks
 * it against the dashboard's router, so a new page fails until it is walked here too. The pages
 * marked `axe` (the catalogue's) are also checked with axe-core.
 *
 * Set SCREENSHOTS=/tmp/some-folder to also keep full-page screenshots at 360 and
 * 1280 px of every page in every language (for looking at them; never committed).
 */
import { createHash } from 'node:crypto'
import { eq } from 'drizzle-orm'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import {
  apiKeys,
  deliveries,
  type Link,
  links,
  PAYMENT_STATUSES,
  payments,
  products,
  type WebhookEndpoint,
  webhookEndpoints,
} from '../../db/schema.js'
import { createApiKey } from '../../src/auth/api-keys.js'
import type { Language } from '../../src/config.js'
import { revokeApiKey } from '../../src/data/api-keys.js'
import { recordAudit } from '../../src/data/audit.js'
import { replaceLogo } from '../../src/data/branding.js'
import { createCheckout } from '../../src/data/checkouts.js'
import { createProduct, setProductImage } from '../../src/data/products.js'
import { createPromoCode } from '../../src/data/promo-codes.js'
import { createEndpoint } from '../../src/outbound-webhooks/endpoints.js'
import { recordAttempt } from '../../src/outbox/deliveries.js'
import { dashboardRoutes } from '../../src/routes/dashboard.js'
import { AUDIT_SAMPLES } from '../support/audit-samples.js'
import {
  axeViolations,
  closeContexts,
  describeInChromium,
  keepScreenshot,
  launchChromium,
  openPage,
  readPage,
} from '../support/chromium.js'
import { type Paylinks, startPaylinks, TEST_ADMIN_TOKEN } from '../support/harness.js'
import { pngLogo } from '../support/images.js'
import { storeLink } from '../support/links.js'
import { overflow } from '../support/phone-overflow.js'
import { storePayment } from './helpers.js'

const LANGUAGES: Language[] = ['ar', 'fr', 'en']
const PHONE = { width: 360, height: 740 }
const DESK = { width: 1280, height: 900 }

const LONG_TITLE =
  'ورشة الفخار التقليدي للأطفال والكبار في قسنطينة — دورة صيفية كاملة مع جميع المواد والأدوات'
const LONG_EMAIL = 'amina.benali.commandes.boutique.constantine@exemple-tres-long-domaine.dz'
const LONG_URL =
  'https://boutique-exemple-tres-long-domaine.dz/commandes/merci?source=paylinks&campagne=ete-2026-constantine'

interface Data {
  long: Link
  items: Link
  /** A declined payment with a long gateway message, for its own page. */
  failed: { id: string }
  endpoint: WebhookEndpoint
  /** A key that acted on links (the audit log's actor filter). */
  keyId: string
  /** A product with a long name, an image and a long SKU, sold once. */
  product: { id: string }
  /** A promo code of the longest text, with a limit partly used. */
  promoCode: { id: string }
}

/**
 * One dashboard page: its route in the dashboard's router (under /dashboard), the address to open
 * and, for a state reached by acting on the page, what to do there.
 */
interface DashPage {
  name: string
  route: string
  path(data: Data): string
  signedOut?: boolean
  act?(page: Page): Promise<unknown>
  /** Also checked with axe-core (serious and critical violations). */
  axe?: boolean
}

/** Add a new dashboard page here: it is then checked at 360 px in every language. */
const PAGES: DashPage[] = [
  { name: 'login', route: 'GET /login', path: () => '/dashboard/login', signedOut: true },
  { name: 'overview', route: 'GET /', path: () => '/dashboard' },
  { name: 'links', route: 'GET /links', path: () => '/dashboard/links' },
  { name: 'link-detail', route: 'GET /links/:id', path: (d) => `/dashboard/links/${d.long.id}` },
  {
    name: 'link-detail-items',
    route: 'GET /links/:id',
    path: (d) => `/dashboard/links/${d.items.id}`,
  },
  { name: 'link-not-found', route: 'GET /links/:id', path: () => '/dashboard/links/lnk_missing' },
  { name: 'link-new', route: 'GET /links/new', path: () => '/dashboard/links/new' },
  {
    name: 'link-new-errors',
    route: 'POST /links',
    path: () => '/dashboard/links/new',
    act: (page) =>
      Promise.all([
        page.waitForURL((url) => url.pathname === '/dashboard/links', {
          waitUntil: 'load',
        }),
        page.locator('form[action="/dashboard/links"]').evaluate((f: HTMLFormElement) => {
          f.noValidate = true
          f.requestSubmit()
        }),
      ]),
  },
  {
    name: 'link-edit',
    route: 'GET /links/:id/edit',
    path: (d) => `/dashboard/links/${d.long.id}/edit`,
  },
  // The catalogue, checked with axe-core too.
  { name: 'products', route: 'GET /products', path: () => '/dashboard/products', axe: true },
  {
    name: 'products-search',
    route: 'GET /products',
    path: () => `/dashboard/products?q=${encodeURIComponent(LONG_TITLE.slice(0, 6))}&status=active`,
    axe: true,
  },
  { name: 'product-new', route: 'GET /products/new', path: () => '/dashboard/products/new' },
  {
    name: 'product-new-errors',
    route: 'POST /products',
    path: () => '/dashboard/products/new',
    axe: true,
    act: (page) =>
      Promise.all([
        page.waitForURL((url) => url.pathname === '/dashboard/products', { waitUntil: 'load' }),
        page.locator('form[action="/dashboard/products"]').evaluate((f: HTMLFormElement) => {
          ;(f.elements.namedItem('price') as HTMLInputElement).value = 'beaucoup'
          ;(f.elements.namedItem('stock') as HTMLInputElement).value = '-1'
          ;(f.elements.namedItem('sku') as HTMLInputElement).value = 'pas une référence'
          f.noValidate = true
          f.requestSubmit()
        }),
      ]),
  },
  // Promo codes, checked with axe-core too.
  {
    name: 'promo-codes',
    route: 'GET /promo-codes',
    path: () => '/dashboard/promo-codes',
    axe: true,
  },
  {
    name: 'promo-code-new',
    route: 'GET /promo-codes/new',
    path: () => '/dashboard/promo-codes/new',
  },
  {
    name: 'promo-code-new-errors',
    route: 'POST /promo-codes',
    path: () => '/dashboard/promo-codes/new',
    axe: true,
    act: (page) =>
      Promise.all([
        page.waitForURL((url) => url.pathname === '/dashboard/promo-codes', { waitUntil: 'load' }),
        page.locator('form[action="/dashboard/promo-codes"]').evaluate((f: HTMLFormElement) => {
          ;(f.elements.namedItem('code') as HTMLInputElement).value = 'pas un code'
          ;(f.elements.namedItem('min_amount') as HTMLInputElement).value = 'beaucoup'
          f.noValidate = true
          f.requestSubmit()
        }),
      ]),
  },
  {
    name: 'promo-code-detail',
    route: 'GET /promo-codes/:id',
    path: (d) => `/dashboard/promo-codes/${d.promoCode.id}`,
    axe: true,
  },
  {
    name: 'product-detail',
    route: 'GET /products/:id',
    path: (d) => `/dashboard/products/${d.product.id}`,
    axe: true,
  },
  {
    name: 'product-image-refused',
    route: 'POST /products/:id/image',
    path: (d) => `/dashboard/products/${d.product.id}`,
    axe: true,
    act: async (page) => {
      await page.locator('#image-file').setInputFiles({
        name: 'photo.png',
        mimeType: 'image/png',
        buffer: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"></svg>'),
      })
      await Promise.all([
        page.waitForURL((u) => u.pathname.endsWith('/image'), { waitUntil: 'load' }),
        page.locator('form[action$="/image"] button').click(),
      ])
      expect(await page.locator('#image-file-err').count()).toBe(1)
    },
  },
  { name: 'payments', route: 'GET /payments', path: () => '/dashboard/payments' },
  {
    name: 'payments-search',
    route: 'GET /payments',
    path: () => `/dashboard/payments?q=${encodeURIComponent(LONG_TITLE.slice(0, 6))}`,
  },
  {
    name: 'links-search',
    route: 'GET /links',
    path: () => `/dashboard/links?q=${encodeURIComponent(LONG_TITLE.slice(0, 6))}`,
  },
  {
    name: 'payment-detail',
    route: 'GET /payments/:id',
    path: (d) => `/dashboard/payments/${d.failed.id}`,
  },
  {
    name: 'payments-filtered',
    route: 'GET /payments',
    path: (d) => `/dashboard/payments?status=paid&link=${d.long.id}&from=2026-01-01&to=2026-12-31`,
  },
  {
    name: 'payments-bad-filter',
    route: 'GET /payments',
    path: () => '/dashboard/payments?from=yesterday',
  },
  { name: 'checkouts', route: 'GET /checkouts', path: () => '/dashboard/checkouts' },
  { name: 'webhooks', route: 'GET /webhooks', path: () => '/dashboard/webhooks' },
  { name: 'webhook-new', route: 'GET /webhooks/new', path: () => '/dashboard/webhooks/new' },
  {
    name: 'webhook-new-errors',
    route: 'POST /webhooks',
    path: () => '/dashboard/webhooks/new',
    act: (page) => submitEndpoint(page, 'not an address'),
  },
  {
    name: 'webhook-created',
    route: 'POST /webhooks',
    path: () => '/dashboard/webhooks/new',
    act: (page) => submitEndpoint(page, LONG_URL),
  },
  {
    name: 'webhook-detail',
    route: 'GET /webhooks/:id',
    path: (d) => `/dashboard/webhooks/${d.endpoint.id}`,
    // The attempts of the first delivery unfolded.
    act: (page) =>
      page
        .locator('td.wh-more details')
        .first()
        .evaluate((d) => {
          ;(d as HTMLDetailsElement).open = true
        }),
  },
  {
    name: 'webhook-edit',
    route: 'GET /webhooks/:id/edit',
    path: (d) => `/dashboard/webhooks/${d.endpoint.id}/edit`,
  },
  {
    name: 'webhook-rotated',
    route: 'POST /webhooks/:id/rotate',
    path: (d) => `/dashboard/webhooks/${d.endpoint.id}`,
    act: (page) =>
      Promise.all([
        page.waitForURL((url) => url.pathname.endsWith('/rotate'), { waitUntil: 'load' }),
        page.locator('form[action$="/rotate"] button').click(),
      ]),
  },
  { name: 'settings', route: 'GET /settings', path: () => '/dashboard/settings' },
  {
    name: 'settings-errors',
    route: 'POST /settings',
    path: () => '/dashboard/settings',
    // The answer comes back to the same address: wait for the navigation itself (a load state
    // awaited after the POST's response could still be the form's own, already loaded).
    act: (page) =>
      Promise.all([
        page.waitForNavigation({ waitUntil: 'load' }),
        page.locator('form[action="/dashboard/settings"]').evaluate((f: HTMLFormElement, long) => {
          const set = (name: string, value: string) => {
            ;(f.elements.namedItem(name) as HTMLInputElement).value = value
          }
          set('merchant_name', long)
          set('brand_color', '#ffd400')
          set('contact_email', long)
          set('terms_url', long)
          set('till_link_minutes', '90')
          f.noValidate = true
          f.requestSubmit()
        }, LONG_EMAIL),
      ]),
  },
  {
    name: 'settings-logo-refused',
    route: 'POST /settings/logo',
    path: () => '/dashboard/settings',
    act: async (page) => {
      await page.locator('#logo-file').setInputFiles({
        name: 'logo.png',
        mimeType: 'image/png',
        buffer: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"></svg>'),
      })
      await Promise.all([
        page.waitForURL((u) => u.pathname === '/dashboard/settings/logo', { waitUntil: 'load' }),
        page.locator('form[action="/dashboard/settings/logo"] button').click(),
      ])
    },
  },
  {
    // A phone's photo, far over the upload's limit: the settings page again, refused beside the field.
    name: 'settings-logo-photo',
    route: 'POST /settings/logo',
    path: () => '/dashboard/settings',
    act: async (page) => {
      await page.locator('#logo-file').setInputFiles({
        name: 'IMG_20261128_101500.jpg',
        mimeType: 'image/jpeg',
        buffer: Buffer.alloc(3 * 1024 * 1024, 0x5a),
      })
      const [answer] = await Promise.all([
        page.waitForResponse((r) => r.url().endsWith('/dashboard/settings/logo')),
        page.waitForURL((u) => u.pathname === '/dashboard/settings/logo', { waitUntil: 'load' }),
        page.locator('form[action="/dashboard/settings/logo"] button').click(),
      ])
      expect(answer.status()).toBe(413)
      expect(await page.locator('#logo-file-err').textContent()).toContain('256')
      // The page opens on the field, not at its top, where a phone would show nothing amiss.
      expect(await page.locator('#logo-file').evaluate((e) => e === document.activeElement)).toBe(
        true,
      )
    },
  },
  { name: 'keys', route: 'GET /keys', path: () => '/dashboard/keys' },
  {
    name: 'key-created',
    route: 'POST /keys',
    path: () => '/dashboard/keys',
    act: (page) => submitKey(page, LONG_TITLE.slice(0, 80)),
  },
  {
    name: 'key-errors',
    route: 'POST /keys',
    path: () => '/dashboard/keys',
    act: (page) => submitKey(page, ''),
  },
  { name: 'audit', route: 'GET /audit', path: () => '/dashboard/audit' },
  {
    name: 'audit-filtered',
    route: 'GET /audit',
    path: (d) => `/dashboard/audit?group=links&actor=${d.keyId}&from=2020-01-01&to=2040-12-31`,
  },
  { name: 'audit-bad-filter', route: 'GET /audit', path: () => '/dashboard/audit?from=never' },
  // The till: its keypad, a refused amount, a sale's QR screen, the shift report.
  { name: 'till', route: 'GET /till', path: () => '/dashboard/till?new' },
  {
    name: 'till-errors',
    route: 'POST /till/sales',
    path: () => '/dashboard/till?new',
    act: (page) =>
      Promise.all([
        page.waitForURL((url) => url.pathname === '/dashboard/till/sales', { waitUntil: 'load' }),
        page.locator('button.charge').click(),
      ]),
  },
  {
    name: 'till-sale',
    route: 'POST /till/sales',
    path: () => '/dashboard/till?new',
    act: async (page) => {
      for (const key of ['1', '2', '5', '0', '5', '0'])
        await page.locator(`[data-key="${key}"]`).click()
      await Promise.all([
        page.waitForURL((url) => url.searchParams.has('sale'), { waitUntil: 'load' }),
        page.locator('button.charge').click(),
      ])
    },
  },
  { name: 'till-report', route: 'GET /till/report', path: () => '/dashboard/till/report' },
  { name: 'till-presets', route: 'GET /till/presets', path: () => '/dashboard/till/presets' },
  {
    name: 'till-presets-errors',
    route: 'POST /till/presets',
    path: () => '/dashboard/till/presets',
    act: (page) =>
      Promise.all([
        page.waitForURL((url) => url.pathname === '/dashboard/till/presets', { waitUntil: 'load' }),
        page.locator('#presets').fill('Café sans prix'),
      ]).then(() =>
        Promise.all([
          page.waitForEvent('load'),
          page.locator('form[action="/dashboard/till/presets"] button[type=submit]').click(),
        ]),
      ),
  },
]

/** Fills the new key form with `name` (write, for the store) and sends it. */
function submitKey(page: Page, name: string) {
  return Promise.all([
    // The answer is at the same address as the form: wait for the navigation itself.
    page.waitForNavigation({ waitUntil: 'load' }),
    page.locator('form[action="/dashboard/keys"]').evaluate((f: HTMLFormElement, value) => {
      ;(f.elements.namedItem('name') as HTMLInputElement).value = value
      ;(f.querySelector('input[name="scope"][value="write"]') as HTMLInputElement).checked = true
      f.noValidate = true
      f.requestSubmit()
    }, name),
  ])
}

/** Fills the new endpoint form with `url` and sends it, the browser's own checks off. */
function submitEndpoint(page: Page, url: string) {
  return Promise.all([
    page.waitForURL((u) => u.pathname === '/dashboard/webhooks', { waitUntil: 'load' }),
    page.locator('form[action="/dashboard/webhooks"]').evaluate((f: HTMLFormElement, value) => {
      ;(f.elements.namedItem('url') as HTMLInputElement).value = value
      f.noValidate = true
      f.requestSubmit()
    }, url),
  ])
}

/** The people and sign-in pages: walked by test/auth/people-pages.browser.test.ts. */
const PEOPLE_PAGES = [
  'POST /login/password',
  'POST /login/code',
  'POST /login/enrol',
  'GET /invite/:token',
  'POST /invite/:token',
  'GET /people',
  'POST /people/invites',
  'POST /people/invites/:id/revoke',
  'POST /people/logout-everywhere',
  'POST /people/require-two-factor',
  'POST /people/:id/role',
  'POST /people/:id/remove',
  'POST /people/:id/logout',
  'GET /account',
  'POST /account/password',
  'GET /account/two-factor',
  'POST /account/two-factor',
  'POST /account/two-factor/disable',
  'POST /account/recovery-codes',
  'POST /account/logout-everywhere',
]

/** Routes that answer with something other than a page to look at. */
const NOT_PAGES = new Set([
  ...PEOPLE_PAGES,
  'POST /login',
  'POST /logout',
  'POST /links/:id',
  'POST /links/:id/deactivate',
  'POST /links/:id/activate',
  'POST /links/:id/delete',
  'POST /checkouts/:id/cancel',
  'GET /payments.csv',
  'POST /webhooks/:id',
  'POST /webhooks/:id/enable',
  'POST /webhooks/:id/disable',
  'POST /webhooks/:id/delete',
  'POST /webhooks/:id/deliveries/:eventId/redeliver',
  'POST /settings/logo/delete',
  'POST /products/:id',
  'POST /products/:id/archive',
  'POST /products/:id/unarchive',
  'POST /products/:id/delete',
  'POST /products/:id/image/delete',
  'POST /promo-codes/:id',
  'POST /promo-codes/:id/deactivate',
  'POST /promo-codes/:id/activate',
  'POST /keys/:id/revoke',
  'GET /till/sales/:id/status',
  'GET /till/sales/:id/events',
  'POST /till/sales/:id/cancel',
])

let browser: Browser
let paylinks: Paylinks
let data: Data

async function seed(p: Paylinks): Promise<Data> {
  // Registered first: the payments below then queue its deliveries. Failing, so every page shows
  // the banner.
  const endpoint = await createEndpoint(
    p.deps.db,
    {
      url: LONG_URL,
      description: LONG_TITLE,
      eventTypes: [
        'payment.paid',
        'payment.failed',
        'payment.canceled',
        'payment.expired',
        'link.completed',
      ],
      enabled: true,
    },
    p.deps.clock(),
  )
  await createEndpoint(
    p.deps.db,
    {
      url: 'https://erp.example.dz/hooks',
      description: null,
      eventTypes: ['payment.paid'],
      enabled: false,
    },
    p.deps.clock(),
  )
  // A logo, for the settings page's preview.
  const logo = pngLogo(240, 96)
  const sha256 = createHash('sha256').update(logo).digest('hex')
  await replaceLogo(
    p.deps.db,
    { sha256, contentType: 'image/png', bytes: logo, width: 240, height: 96 },
    p.deps.clock(),
  )
  const long = await storeLink(p, {
    title: LONG_TITLE,
    language: 'ar',
    description: `${LONG_TITLE} ${LONG_TITLE}`,
    invoiceId: 'FACTURE-2026-CONSTANTINE-0000000000123456789',
    memo: 'Mémo interne très long sans espaces: ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789ABCDEFGHIJ',
    successMessage: 'شكراً جزيلاً على ثقتكم، سنتصل بكم قريباً لتأكيد موعد الورشة والتفاصيل',
    successUrl: LONG_URL,
    metadata: { order_id: 'CMD-2026-000000123456789', 'client.note': LONG_TITLE },
  })
  const items = await storeLink(p, {
    title: 'Commande groupée',
    amount: 750000,
    invoiceItems: [
      { description: `${LONG_TITLE} (lot)`, quantity: 2, unitPrice: 250000 },
      { description: 'Frais de livraison vers Tamanrasset', quantity: 1, unitPrice: 250000 },
    ],
  })
  await storeLink(p, { title: 'Cours ouvert', amount: null, amountMin: 5000, amountMax: null })
  await storeLink(p, { title: 'Ancien lien', active: false })
  const stored: Record<string, { id: string }> = {}
  for (const status of PAYMENT_STATUSES) {
    stored[status] = await storePayment(p, long, {
      status,
      email: LONG_EMAIL,
      name: 'عبد الرحمن بن عبد الله الطاهري القسنطيني',
      phone: '+213550123456',
      ref: 'REF-2026-CONSTANTINE-000000123456789',
    })
  }
  const beyond = await storePayment(p, long, { status: 'paid', email: LONG_EMAIL })
  await p.deps.db
    .update(payments)
    .set({ beyondMaxPayments: true })
    .where(eq(payments.id, beyond.id))
  // Set afterwards: a limit would have refused some of the payments above.
  await p.deps.db.update(links).set({ maxPayments: 3 }).where(eq(links.id, long.id))
  const failed = stored.failed!
  await p.deps.db
    .update(payments)
    .set({
      failureCode: 'insufficient_funds',
      respCode: '51',
      checkResponse: {
        respCode_desc: `${LONG_TITLE} — solde insuffisant sur la carte ${LONG_URL}`,
      },
    })
    .where(eq(payments.id, failed.id))
  const queued = await p.deps.db
    .select()
    .from(deliveries)
    .where(eq(deliveries.endpointId, endpoint.id))
  for (const [i, delivery] of queued.entries()) {
    const at = p.deps.clock()
    await recordAttempt(p.deps.db, delivery.id, {
      at,
      status: i === 0 ? null : 503,
      responseExcerpt: i === 0 ? null : `<html><body>${LONG_EMAIL.repeat(12)}</body></html>`,
      durationMs: 10_000,
      error:
        i === 0 ? 'The receiver did not answer within 10 seconds (connection timed out)' : null,
      delivered: false,
      nextAttemptAt: i === 1 ? null : at + 300_000,
    })
  }
  await p.deps.db
    .update(webhookEndpoints)
    .set({ failingSince: p.deps.clock(), consecutiveFailures: 5 })
    .where(eq(webhookEndpoints.id, endpoint.id))
  // A shop's checkout with the longest reference a shop may give (100 characters, no space).
  const now = p.deps.clock()
  await createCheckout(
    p.deps.db,
    {
      amount: 123_456_789,
      lineItems: null,
      reference: `CMD-${'0123456789'.repeat(9)}-X`.slice(0, 100),
      metadata: {},
      customerName: null,
      customerPhone: null,
      customerEmail: null,
      successUrl: LONG_URL,
      cancelUrl: null,
      language: 'ar',
      expiresAt: now + 86_400_000,
      title: LONG_TITLE,
    },
    now,
  )
  // Keys with long names, one revoked and one used; audit entries with long labels and details.
  const key = await createApiKey(p.deps, {
    name: LONG_TITLE,
    scope: 'write',
    userId: null,
    createdBy: null,
  })
  const used = await createApiKey(p.deps, {
    name: 'Caisse boutique',
    scope: 'read',
    userId: null,
    createdBy: null,
  })
  await p.deps.db
    .update(apiKeys)
    .set({ lastUsedAt: p.deps.clock() })
    .where(eq(apiKeys.id, used.key.id))
  await revokeApiKey(p.deps.db, used.key.id, p.deps.clock())
  const actor = {
    kind: 'key' as const,
    keyId: key.key.id,
    name: LONG_TITLE,
    scope: 'write' as const,
    userId: null,
    role: 'owner' as const,
  }
  for (const action of ['link_created', 'link_updated', 'link_deactivated'] as const)
    await recordAudit(p.deps.db, {
      at: p.deps.clock(),
      action,
      actor,
      target: { kind: 'link', id: long.id },
      detail: { title: LONG_TITLE, fields: ['amount', 'description', 'success_url', 'title'] },
      address: '2001:db8:1234:5678:9abc:def0:1234:5678',
    })
  await recordAudit(p.deps.db, {
    at: p.deps.clock(),
    action: 'webhook_endpoint_updated',
    actor: { kind: 'admin' },
    target: { kind: 'webhook_endpoint', id: endpoint.id },
    detail: { url: LONG_URL, fields: ['description', 'enabled', 'event_types', 'url'] },
    address: '192.0.2.10',
  })
  // One entry of every kind of act, by a person with a long e-mail, from a long IPv6 address.
  const person = {
    kind: 'user' as const,
    userId: 'usr_5f2c8e1a9b7d4c3e',
    email: LONG_EMAIL,
    name: 'Amina',
    role: 'owner' as const,
  }
  for (const [action, sample] of Object.entries(AUDIT_SAMPLES))
    await recordAudit(p.deps.db, {
      at: p.deps.clock(),
      action: action as keyof typeof AUDIT_SAMPLES,
      actor: person,
      ...sample,
      address: '2001:db8:1234:5678:9abc:def0:1234:5678',
    })
  // The catalogue: a long Arabic name with an image, a long SKU and a sale; one archived; one
  // without stock or SKU.
  const photo = pngLogo(320, 240)
  const made = await createProduct(
    p.deps.db,
    {
      name: LONG_TITLE,
      description: `${LONG_TITLE} ${LONG_TITLE}`,
      price: 12_345_650,
      stock: 1_000_000,
      sku: 'ART-CONSTANTINE-2026-POTERIE-TRADITIONNELLE-0000000000123456789',
      active: true,
    },
    p.deps.clock(),
  )
  if (!made.ok) throw new Error(made.kind)
  await setProductImage(
    p.deps.db,
    made.product.id,
    {
      sha256: createHash('sha256').update(photo).digest('hex'),
      contentType: 'image/png',
      bytes: photo,
      width: 320,
      height: 240,
    },
    p.deps.clock(),
  )
  await p.deps.db.update(products).set({ soldCount: 2 }).where(eq(products.id, made.product.id))
  await createProduct(
    p.deps.db,
    {
      name: 'Ancien article',
      description: null,
      price: 5000,
      stock: 0,
      sku: 'OLD-1',
      active: false,
    },
    p.deps.clock(),
  )
  await createProduct(
    p.deps.db,
    {
      name: 'Cours particulier',
      description: null,
      price: 150_000,
      stock: null,
      sku: null,
      active: true,
    },
    p.deps.clock(),
  )
  const promo = await createPromoCode(
    p.deps.db,
    {
      code: 'RAMADAN-2026-CONSTANTINE-LIVRAISON-OFFER',
      percentOff: null,
      amountOff: 1_250_050,
      minAmount: 10_000_000,
      maxRedemptions: 1_000_000,
      expiresAt: p.deps.clock() + 86_400_000,
      active: true,
    },
    p.deps.clock(),
  )
  if (!promo.ok) throw new Error(promo.kind)
  return {
    long,
    items,
    failed,
    endpoint,
    keyId: key.key.id,
    product: made.product,
    promoCode: promo.promoCode,
  }
}

/** Signs in from the sign-in page (loaded unless the page already shows it, untouched). */
async function signIn(page: Page, shown?: string) {
  const login = `${paylinks.url}/dashboard/login`
  if (shown !== login) await page.goto(login)
  await page.locator('#token').fill(TEST_ADMIN_TOKEN)
  await Promise.all([
    page.waitForURL((url) => url.pathname === '/dashboard'),
    page.locator('form[action="/dashboard/login"] button[type=submit]').click(),
  ])
}

/**
 * Values of a definition list that sit on the left of their box in Arabic: a value set
 * left-to-right (an address, a lone "—") must still line up on the right with the others.
 */
function leftAligned(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const out: string[] = []
    for (const dd of document.querySelectorAll('dl.kv dd')) {
      const box = dd.getBoundingClientRect()
      const range = document.createRange()
      range.selectNodeContents(dd)
      const text = range.getBoundingClientRect()
      if (box.width > 0 && text.width > 0 && box.right - text.right > 2)
        out.push(`dd "${(dd.textContent ?? '').trim().slice(0, 30)}" sits on the left`)
    }
    return out
  })
}

/**
 * Opens the entry's page and acts on it; returns the address the page now shows as loaded and
 * untouched (none after an act). A state reached by acting starts from its page: when the walk's
 * last page was that very page, as loaded, it acts there instead of loading it again (each load
 * costs Chromium a third of a second of CPU, and the page would be the same).
 */
async function open(page: Page, entry: DashPage, shown?: string): Promise<string | undefined> {
  const address = `${paylinks.url}${entry.path(data)}`
  if (!(entry.act && shown === address)) await page.goto(address)
  if (!entry.act) return address
  await entry.act(page)
  return undefined
}

/** Keeps screenshots of the page at 360 and 1280 px when SCREENSHOTS names a folder. */
const shoot = (page: Page, lang: Language, entry: DashPage) =>
  keepScreenshot(page, `dashboard/${lang}-${entry.name}`, [PHONE, DESK])

describeInChromium('the dashboard on a 360 px phone', () => {
  beforeAll(async () => {
    paylinks = await startPaylinks({ http: true })
    data = await seed(paylinks)
    browser = await launchChromium()
  })
  afterAll(async () => {
    await closeContexts(browser)
    await paylinks?.close()
  })

  it('walks every page of the dashboard router', () => {
    const walked = new Set(PAGES.map((p) => p.route))
    const routes = dashboardRoutes.routes
      .filter((r) => r.method !== 'ALL')
      .map((r) => `${r.method} ${r.path}`)
    const missing = routes.filter((r) => !walked.has(r) && !NOT_PAGES.has(r))
    expect(missing, 'add these dashboard pages to PAGES in this file').toEqual([])
  })

  // Who, On and Address wrap at spaces only: a name keeps its words whole, an e-mail, an id or an
  // IPv6 address stays on one line (cut with an ellipsis if need be); Detail takes what is left.
  it('keeps the words of the audit log’s Who, On and Address whole at 1280 px', async () => {
    const { page, close } = await openPage(browser, { viewport: DESK })
    try {
      await signIn(page)
      const broken: Record<string, string[]> = {}
      for (const lang of LANGUAGES) {
        await page.goto(`${paylinks.url}/dashboard/audit?lang=${lang}`)
        const found = await page.evaluate(() => {
          const out: string[] = []
          const cells = document.querySelectorAll(
            'tr[data-audit-id]>td:nth-child(2),tr[data-audit-id]>td:nth-child(4),tr[data-audit-id]>td:nth-child(5)',
          )
          for (const cell of cells) {
            const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT)
            for (let node = walker.nextNode(); node; node = walker.nextNode()) {
              for (const word of (node.textContent ?? '').matchAll(/\S+/g)) {
                const range = document.createRange()
                range.setStart(node, word.index)
                range.setEnd(node, word.index + word[0].length)
                const lines = new Set([...range.getClientRects()].map((r) => Math.round(r.top)))
                if (lines.size > 1) out.push(word[0])
              }
            }
          }
          return [...new Set(out)]
        })
        if (found.length > 0) broken[lang] = found
        expect(await overflow(page), lang).toEqual([])
        await keepScreenshot(page, `dashboard/${lang}-audit-columns`, [PHONE, DESK])
      }
      expect(broken).toEqual({})
    } finally {
      await close()
    }
  }, 120_000)

  for (const lang of LANGUAGES) {
    // A walk of every dashboard page: 15 to 35 s on a 2-core machine running the whole suite, and
    // twice that when the machine is busier, so its time limit is the walk's, not a single test's.
    it(`shows every page in ${lang} without sideways scrolling at 360 px`, async () => {
      const context = await browser.newContext({
        viewport: PHONE,
        locale: lang,
        isMobile: true,
        hasTouch: true,
      })
      const page = await context.newPage()
      // Every page is checked before the test fails, so one run names all that stick out.
      const problems: Record<string, string[]> = {}
      // The address the page shows as loaded and untouched: the next state reached by acting on
      // that page starts there (`open`).
      let shown: string | undefined
      const check = async (entry: DashPage) => {
        shown = await open(page, entry, shown)
        expect((await readPage(page)).lang, entry.name).toBe(lang)
        const found = await overflow(page)
        if (lang === 'ar') found.push(...(await leftAligned(page)))
        if (entry.axe) found.push(...(await axeViolations(page)))
        if (found.length > 0) problems[entry.name] = found
        await shoot(page, lang, entry)
      }
      try {
        for (const entry of PAGES.filter((p) => p.signedOut)) await check(entry)
        await signIn(page, shown)
        shown = undefined
        for (const entry of PAGES.filter((p) => !p.signedOut)) await check(entry)
        expect(problems).toEqual({})
      } finally {
        await context.close()
      }
    }, 120_000)
  }
})
