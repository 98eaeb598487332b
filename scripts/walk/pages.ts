/**
 * The pages the walk opens, in order. The dashboard's come from its router (every GET route that
 * shows a page, its address filled from the seeded data), so a new dashboard page is walked or
 * named as missing, never skipped in silence; the customer's are the ones product.md lists, each
 * reached as a customer reaches it (a card payment goes through the simulator's pages).
 */
import type { Page } from 'playwright-core'
import type { Language } from '../../src/config.js'
import { dashboardRoutes } from '../../src/routes/dashboard.js'
import { TEST_OTP } from '../../src/simulator/index.js'
import { CUSTOMER, nextIp, startPendingPayment } from '../../test/browser/support.js'
import type { Paylinks } from '../../test/support/harness.js'
import type { WalkData } from './seed.js'

export interface WalkEnv {
  p: Paylinks
  data: WalkData
  lang: Language
}

/** Who is signed in for the page: nobody, an owner, or a cashier (for a refusal). */
export type Who = 'nobody' | 'owner' | 'cashier'

export interface WalkPage {
  name: string
  area: 'customer' | 'sign-in' | 'dashboard'
  who: Who
  /** Opens the page (it may go on from the page before it, as a customer's payment does). */
  open(page: Page, env: WalkEnv): Promise<unknown>
  /** Looked at as printed. */
  print?: boolean
  /** The page's one language, whatever the browser's (the API docs are in English). */
  lang?: Language
}

const go = (path: string) => (page: Page, env: WalkEnv) => page.goto(`${env.p.url}${path}`)

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

/** Signs in with e-mail and password from the sign-in page. */
export async function signIn(page: Page, env: WalkEnv, email: string, password: string) {
  await page.goto(`${env.p.url}/dashboard/login`)
  await submit(page, 'form[data-form=password]', { email, password })
}

/** Fills the checkout as a customer (a new address each time: the checkout limits by address). */
async function pay(page: Page, env: WalkEnv, slug: string) {
  await page.setExtraHTTPHeaders({ 'x-test-ip': nextIp() })
  await page.goto(`${env.p.url}/l/${slug}`)
  await page.locator('#name').fill(CUSTOMER.name)
  await page.locator('#phone').fill(CUSTOMER.phone)
  await page.locator('#email').fill(CUSTOMER.email)
  await page.locator('input[name=terms]').check()
  await Promise.all([page.waitForEvent('load'), page.locator('button.pay').click()])
}

/** On the simulator's card page: a test card, then its 3-D Secure code page. */
async function card(page: Page, number: string) {
  await page.locator('#pan').fill(number)
  await page.locator('#expiry').fill('12/30')
  await page.locator('#cvv').fill('123')
  await Promise.all([
    page.waitForEvent('load'),
    page.locator('form[action*="/card"] button[type=submit]').click(),
  ])
}

/** Types the code and follows the way back to Paylinks' receipt, confirmed. */
async function otpAndBack(page: Page, env: WalkEnv) {
  await page.locator('#otp').fill(TEST_OTP)
  await Promise.all([
    page.waitForURL((u) => u.origin === new URL(env.p.url).origin && u.pathname.startsWith('/r/'), {
      waitUntil: 'load',
    }),
    page.locator('form[action*="/otp"] button[type=submit]').click(),
  ])
  await env.p.settle()
  await page.reload()
}

/** Dashboard GET routes that answer with something else than a page. */
const NOT_PAGES = new Set(['/payments.csv', '/till/sales/:id/status', '/till/sales/:id/events'])

/** Dashboard pages walked signed out, among the sign-in pages below. */
const SIGN_IN_ROUTES = new Set(['/login', '/invite/:token'])

/** Where each dashboard page is, by its route. A route missing here is reported by the walk. */
const ADDRESSES: Record<string, (d: WalkData) => string> = {
  '/': () => '',
  '/links': () => '/links',
  '/links/new': () => '/links/new',
  '/links/:id': (d) => `/links/${d.fixed.id}`,
  '/links/:id/edit': (d) => `/links/${d.items.id}/edit`,
  '/products': () => '/products',
  '/products/new': () => '/products/new',
  '/products/:id': (d) => `/products/${d.product.id}`,
  '/promo-codes': () => '/promo-codes',
  '/promo-codes/new': () => '/promo-codes/new',
  '/promo-codes/:id': (d) => `/promo-codes/${d.promo.code.id}`,
  '/payments': () => '/payments',
  '/payments/:id': (d) => `/payments/${d.failed.id}`,
  '/checkouts': () => '/checkouts',
  '/webhooks': () => '/webhooks',
  '/webhooks/new': () => '/webhooks/new',
  '/webhooks/:id': (d) => `/webhooks/${d.endpoint.id}`,
  '/webhooks/:id/edit': (d) => `/webhooks/${d.endpoint.id}/edit`,
  '/people': () => '/people',
  '/account': () => '/account',
  '/account/two-factor': () => '/account/two-factor',
  '/settings': () => '/settings',
  '/keys': () => '/keys',
  '/audit': () => '/audit',
  '/till': () => '/till?new',
  '/till/report': () => '/till/report',
  '/till/presets': () => '/till/presets',
}

/** The dashboard's page routes (GET) from its router, and those the walk cannot place. */
export function dashboardPages(): { pages: WalkPage[]; unplaced: string[] } {
  const pages: WalkPage[] = []
  const unplaced: string[] = []
  const seen = new Set<string>()
  for (const route of dashboardRoutes.routes) {
    if (route.method !== 'GET' || seen.has(route.path)) continue
    seen.add(route.path)
    if (NOT_PAGES.has(route.path) || SIGN_IN_ROUTES.has(route.path)) continue
    const address = ADDRESSES[route.path]
    if (!address) {
      unplaced.push(`GET /dashboard${route.path}`)
      continue
    }
    const name = route.path === '/' ? 'overview' : route.path.slice(1).replace(/[/:]+/g, '-')
    pages.push({
      name,
      area: 'dashboard',
      who: 'owner',
      open: (page, env) => page.goto(`${env.p.url}/dashboard${address(env.data)}`),
    })
  }
  return { pages, unplaced }
}

/** Dashboard states reached by acting on a page: a form's errors, what a form made. */
const DASHBOARD_STATES: WalkPage[] = [
  {
    name: 'links-id-invoice',
    area: 'dashboard',
    who: 'owner',
    open: (page, env) => page.goto(`${env.p.url}/dashboard/links/${env.data.items.id}`),
  },
  {
    name: 'links-id-deposit',
    area: 'dashboard',
    who: 'owner',
    open: (page, env) =>
      page.goto(`${env.p.url}/dashboard/links/${env.data.links[env.lang].deposit.id}`),
  },
  {
    name: 'links-id-custom-fields',
    area: 'dashboard',
    who: 'owner',
    open: (page, env) =>
      page.goto(`${env.p.url}/dashboard/links/${env.data.links[env.lang].fields.id}`),
  },
  {
    name: 'payments-id-custom-fields',
    area: 'dashboard',
    who: 'owner',
    open: (page, env) =>
      page.goto(`${env.p.url}/dashboard/payments/${env.data.links[env.lang].answered.id}`),
  },
  {
    name: 'payments-id-checkout',
    area: 'dashboard',
    who: 'owner',
    open: (page, env) =>
      page.goto(`${env.p.url}/dashboard/payments/${env.data.checkoutPayment.id}`),
  },
  {
    name: 'links-new-errors',
    area: 'dashboard',
    who: 'owner',
    open: async (page, env) => {
      await page.goto(`${env.p.url}/dashboard/links/new`)
      await submit(page, 'form[action="/dashboard/links"]', { title: '', amount: 'abc' })
    },
  },
  {
    name: 'settings-errors',
    area: 'dashboard',
    who: 'owner',
    open: async (page, env) => {
      await page.goto(`${env.p.url}/dashboard/settings`)
      await submit(page, 'form[action="/dashboard/settings"]', {
        contact_email: 'not an e-mail',
        terms_url: 'nowhere',
      })
    },
  },
  {
    name: 'keys-created',
    area: 'dashboard',
    who: 'owner',
    open: async (page, env) => {
      await page.goto(`${env.p.url}/dashboard/keys`)
      await submit(page, 'form[action="/dashboard/keys"]', { name: `Caisse ${env.lang}` })
    },
  },
  {
    name: 'till-sale',
    area: 'dashboard',
    who: 'owner',
    open: (page, env) => page.goto(`${env.p.url}/dashboard/till?sale=${env.data.tillSale.id}`),
  },
  {
    name: 'cashier-till',
    area: 'dashboard',
    who: 'cashier',
    open: go('/dashboard'),
  },
  {
    name: 'cashier-refused',
    area: 'dashboard',
    who: 'cashier',
    open: go('/dashboard/settings'),
  },
]

/** Signed out: the sign-in pages, two-factor's code page, an invitation. */
export function signInPages(people: { secure: string }, password: string): WalkPage[] {
  return [
    { name: 'login', area: 'sign-in', who: 'nobody', open: go('/dashboard/login') },
    {
      name: 'login-wrong-password',
      area: 'sign-in',
      who: 'nobody',
      open: (page, env) => signIn(page, env, 'nobody@boutique-exemple.dz', 'wrong password'),
    },
    {
      name: 'login-two-factor',
      area: 'sign-in',
      who: 'nobody',
      open: (page, env) => signIn(page, env, people.secure, password),
    },
    {
      name: 'login-two-factor-wrong',
      area: 'sign-in',
      who: 'nobody',
      open: (page) => submit(page, 'form[action="/dashboard/login/code"]', { code: '12' }),
    },
    {
      name: 'invite',
      area: 'sign-in',
      who: 'nobody',
      open: (page, env) => page.goto(`${env.p.url}/dashboard/invite/${env.data.invites[env.lang]}`),
    },
    {
      name: 'invite-errors',
      area: 'sign-in',
      who: 'nobody',
      open: (page) =>
        submit(page, 'form[action^="/dashboard/invite/"]', { name: '', password: 'short' }),
    },
    { name: 'invite-gone', area: 'sign-in', who: 'nobody', open: go('/dashboard/invite/none') },
  ]
}

/** What a customer sees: links of each kind, a card payment paid and one declined, the rest. */
export const CUSTOMER_PAGES: WalkPage[] = [
  {
    name: 'link-fixed',
    area: 'customer',
    who: 'nobody',
    open: (page, env) => page.goto(`${env.p.url}/l/${env.data.links[env.lang].fixed.slug}`),
  },
  {
    name: 'link-open-amount',
    area: 'customer',
    who: 'nobody',
    open: (page, env) =>
      page.goto(`${env.p.url}/l/${env.data.links[env.lang].open.slug}?name=Karim&ref=CMD-9`),
  },
  {
    name: 'link-invoice',
    area: 'customer',
    who: 'nobody',
    open: (page, env) => page.goto(`${env.p.url}/l/${env.data.links[env.lang].items.slug}`),
  },
  {
    name: 'link-deposit',
    area: 'customer',
    who: 'nobody',
    open: (page, env) => page.goto(`${env.p.url}/l/${env.data.links[env.lang].deposit.slug}`),
  },
  {
    name: 'link-cart',
    area: 'customer',
    who: 'nobody',
    open: (page, env) => page.goto(`${env.p.url}/l/${env.data.links[env.lang].cart.slug}`),
  },
  {
    name: 'checkout-order',
    area: 'customer',
    who: 'nobody',
    open: (page, env) => page.goto(`${env.p.url}/l/${env.data.links[env.lang].checkout.slug}`),
  },
  {
    name: 'link-custom-fields',
    area: 'customer',
    who: 'nobody',
    open: (page, env) =>
      page.goto(`${env.p.url}/l/${env.data.links[env.lang].fields.slug}?cf_size=M`),
  },
  {
    name: 'link-custom-fields-errors',
    area: 'customer',
    who: 'nobody',
    open: async (page, env) => {
      // The required wilaya left unchosen, a number that is not one: each refused by its field.
      await page.setExtraHTTPHeaders({ 'x-test-ip': nextIp() })
      await page.goto(`${env.p.url}/l/${env.data.links[env.lang].fields.slug}`)
      await page.locator('#cf-address').fill('12 rue Didouche Mourad\nAlger centre')
      await page.locator('#cf-count').fill('deux')
      await submit(page, 'form.card', {
        name: CUSTOMER.name,
        phone: CUSTOMER.phone,
        email: CUSTOMER.email,
      })
    },
  },
  {
    name: 'receipt-custom-fields',
    area: 'customer',
    who: 'nobody',
    open: (page, env) => page.goto(`${env.p.url}/r/${env.data.links[env.lang].answered.receiptId}`),
  },
  {
    // The order summary: the code applied (prefilled), its discount, the fee and the total.
    name: 'link-promo-fee',
    area: 'customer',
    who: 'nobody',
    open: (page, env) =>
      page.goto(`${env.p.url}/l/${env.data.promo.link.slug}?lang=${env.lang}&promo_code=ramadan10`),
  },
  {
    name: 'checkout-errors',
    area: 'customer',
    who: 'nobody',
    open: async (page, env) => {
      await page.setExtraHTTPHeaders({ 'x-test-ip': nextIp() })
      await page.goto(`${env.p.url}/l/${env.data.links[env.lang].open.slug}`)
      await page.locator('#amount').fill('12,345')
      await page.locator('#email').fill('not-an-email')
      await Promise.all([page.waitForEvent('load'), page.locator('button.pay').click()])
    },
  },
  {
    name: 'sim-card',
    area: 'customer',
    who: 'nobody',
    open: (page, env) => pay(page, env, env.data.links[env.lang].fixed.slug),
  },
  {
    name: 'sim-card-errors',
    area: 'customer',
    who: 'nobody',
    open: (page) => card(page, '1234'),
  },
  {
    name: 'sim-3ds',
    area: 'customer',
    who: 'nobody',
    open: (page) => card(page, '6280580000000009'),
  },
  {
    name: 'receipt-paid',
    area: 'customer',
    who: 'nobody',
    open: (page, env) => otpAndBack(page, env),
  },
  {
    name: 'receipt-paid-print',
    area: 'customer',
    who: 'nobody',
    print: true,
    open: async () => {},
  },
  {
    name: 'receipt-declined',
    area: 'customer',
    who: 'nobody',
    open: async (page, env) => {
      await pay(page, env, env.data.links[env.lang].fixed.slug)
      await card(page, '6280583333333337')
      if (await page.locator('#otp').count()) await otpAndBack(page, env)
    },
  },
  {
    // A shop's order declined: "Try again" and the way back to the shop.
    name: 'checkout-declined',
    area: 'customer',
    who: 'nobody',
    open: async (page, env) => {
      await pay(page, env, env.data.links[env.lang].checkout.slug)
      await card(page, '6280583333333337')
      if (await page.locator('#otp').count()) await otpAndBack(page, env)
    },
  },
  {
    name: 'receipt-pending',
    area: 'customer',
    who: 'nobody',
    open: async (page, env) => {
      const { receiptId } = await startPendingPayment(env.p, env.data.links[env.lang].fixed.slug)
      await page.goto(`${env.p.url}/r/${receiptId}?lang=${env.lang}`)
    },
  },
  {
    name: 'gateway-error',
    area: 'customer',
    who: 'nobody',
    open: async (page, env) => {
      env.p.simulator.faults.set({
        endpoints: { 'make-cib-transaction': { status5xx: 503, times: 1 } },
      })
      await pay(page, env, env.data.links[env.lang].fixed.slug)
    },
  },
  {
    name: 'link-inactive',
    area: 'customer',
    who: 'nobody',
    open: (page, env) => page.goto(`${env.p.url}/l/${env.data.links[env.lang].inactive.slug}`),
  },
  {
    name: 'link-expired',
    area: 'customer',
    who: 'nobody',
    open: (page, env) => page.goto(`${env.p.url}/l/${env.data.links[env.lang].expired.slug}`),
  },
  {
    name: 'link-completed',
    area: 'customer',
    who: 'nobody',
    open: (page, env) => page.goto(`${env.p.url}/l/${env.data.links[env.lang].completed.slug}`),
  },
  { name: 'link-unknown', area: 'customer', who: 'nobody', open: go('/l/NoSuchLink42') },
  {
    name: 'poster',
    area: 'customer',
    who: 'nobody',
    open: (page, env) => page.goto(`${env.p.url}/l/${env.data.links[env.lang].fixed.slug}/poster`),
  },
  { name: 'poster-print', area: 'customer', who: 'nobody', print: true, open: async () => {} },
  { name: 'terms', area: 'customer', who: 'nobody', open: go('/terms') },
  { name: 'api-docs', area: 'customer', who: 'nobody', lang: 'en', open: go('/api/docs') },
]

export { DASHBOARD_STATES }
