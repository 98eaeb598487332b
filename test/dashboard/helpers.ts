/** Shared set-up for the dashboard tests: a browser-like client with a cookie jar, and sample data. */

import { eq } from 'drizzle-orm'
import type { Link, Payment, PaymentStatus } from '../../db/schema.js'
import { payments } from '../../db/schema.js'
import { reservePayment } from '../../src/data/payments.js'
import { type Paylinks, TEST_ADMIN_TOKEN } from '../support/harness.js'
import { T0 } from '../support/manual-time.js'

export { T0 } from '../support/manual-time.js'

/** A clock the test moves by hand. */
export function manualClock(start = T0) {
  let now = start
  const clock = () => now
  return Object.assign(clock, {
    advance(ms: number) {
      now += ms
    },
  })
}

/** Cookies by name, as a browser would keep them for /dashboard (expiry by Max-Age=0 only). */
export class CookieJar {
  readonly cookies = new Map<string, string>()

  /** Takes every Set-Cookie of a response. */
  take(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(';')
      const eq = pair!.indexOf('=')
      const name = pair!.slice(0, eq).trim()
      const value = pair!.slice(eq + 1).trim()
      const expired = attributes.some((a) => /^\s*max-age=0\s*$/i.test(a))
      if (expired) this.cookies.delete(name)
      else this.cookies.set(name, value)
    }
  }

  header(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ')
  }
}

/** A signed-out browser on the in-process app. */
export class Browser {
  readonly jar = new CookieJar()
  constructor(
    readonly paylinks: Paylinks,
    readonly headers: Record<string, string> = {},
  ) {}

  async request(path: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers({ ...this.headers, ...(init.headers as Record<string, string>) })
    // A browser names the page's origin on every POST (the sign-in forms check it).
    if (init.method === 'POST' && !headers.has('origin')) {
      headers.set('origin', new URL(this.paylinks.deps.config.publicUrl).origin)
    }
    const cookie = this.jar.header()
    if (cookie) headers.set('cookie', cookie)
    const response = await this.paylinks.app.request(path, { ...init, headers })
    this.jar.take(response)
    return response
  }

  get(path: string, headers: Record<string, string> = {}): Promise<Response> {
    return this.request(path, { headers })
  }

  /** Posts a form (urlencoded, as a browser does). */
  post(path: string, form: Record<string, string> | URLSearchParams): Promise<Response> {
    return this.request(path, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: form instanceof URLSearchParams ? form : new URLSearchParams(form),
    })
  }

  /** Reads the `_csrf` field of the form on a page. */
  async formToken(path: string): Promise<string> {
    return csrfOf(await (await this.get(path)).text())
  }

  /** Posts a form with the token of the page it would be sent from. */
  async submit(fromPath: string, action: string, form: Record<string, string> = {}) {
    const _csrf = await this.formToken(fromPath)
    return this.post(action, { ...form, _csrf })
  }

  /** Signs in with the admin token. */
  async login(token = TEST_ADMIN_TOKEN): Promise<Response> {
    const _csrf = await this.formToken('/dashboard/login')
    return this.post('/dashboard/login', { token, _csrf })
  }
}

/** The value of the first `_csrf` hidden field of a page. */
export function csrfOf(html: string): string {
  const match = /name="_csrf" value="([^"]*)"/.exec(html)
  if (!match) throw new Error('No _csrf field on the page')
  return match[1]!
}

/** Signs in a fresh browser. */
export async function signedIn(paylinks: Paylinks): Promise<Browser> {
  const browser = new Browser(paylinks, { 'accept-language': 'en' })
  const response = await browser.login()
  if (response.status !== 303) throw new Error(`Login failed: ${response.status}`)
  return browser
}

/** A payment on a link, put in `status` directly (the payment flow has its own tests). */
export async function storePayment(
  paylinks: Paylinks,
  link: Link,
  options: {
    status?: PaymentStatus
    at?: number
    amount?: number
    name?: string
    phone?: string
    email?: string
    ref?: string
  } = {},
): Promise<Payment> {
  const db = paylinks.deps.db
  const at = options.at ?? paylinks.deps.clock()
  const reserved = await reservePayment(
    db,
    {
      linkId: link.id,
      amount: options.amount ?? link.amount ?? 10000,
      customerName: options.name ?? 'Amina Benali',
      customerPhone: options.phone ?? '0550123456',
      customerEmail: options.email ?? 'amina@example.dz',
      ref: options.ref ?? null,
      language: link.language,
    },
    at,
  )
  if (!reserved.ok) throw new Error(`Could not reserve a payment: ${reserved.reason}`)
  const status = options.status ?? 'paid'
  const [row] = await db
    .update(payments)
    .set({ status, paidAt: status === 'paid' ? at : null, orderNumber: 'ORD-42' })
    .where(eq(payments.id, reserved.payment.id))
    .returning()
  return row!
}
