/**
 * What the sign-in forms share: their pages, the checks before a field is read, the 429 words,
 * and opening the session at the end.
 */
import type { User } from '../../db/schema.js'
import { LoginPage } from '../../views/dashboard/login-page.js'
import { SecondStepPage } from '../../views/dashboard/two-factor-parts.js'
import { auditRequest } from '../auth/audit-request.js'
import { userPrincipal } from '../auth/principal.js'
import { recordLogin } from '../data/users.js'
import { PUBLIC_FORM_BODY_LIMIT } from '../http/body-limits.js'
import { formatMinutes } from '../i18n/index.js'
import { holdBody } from '../lib/bounded-body.js'
import { readForm } from '../lib/form-body.js'
import { tooLargePage } from '../routes/error-pages.js'
import { forgetWrongPasswords, type PasswordThrottled } from '../security/password-guessing.js'
import { retryAfterSeconds, tokenGuessingThrottled } from '../security/token-guessing.js'
import { type DashC, dashContext } from './context.js'
import { homeOf } from './home.js'
import { loginFormToken, startSession, verifyLoginFormToken } from './session.js'

export type SignInStatus = 200 | 400 | 401 | 403 | 429

/** The sign-in page with a notice or an error. */
export async function renderLogin(
  c: DashC,
  status: SignInStatus,
  message?: { error?: string; notice?: string; email?: string; failed?: 'password' | 'token' },
) {
  // Answers to the sign-in forms' POSTs too: the language switcher reopens the sign-in page.
  const ctx = { ...dashContext(c), switchPath: '/dashboard/login' }
  return c.html(<LoginPage ctx={ctx} formToken={await loginFormToken(c)} {...message} />, status)
}

/** The second step's page for a pending sign-in. */
export async function renderCode(c: DashC, status: SignInStatus, pending: string, error?: string) {
  return c.html(
    <SecondStepPage
      // The language switcher cannot reopen a POST's answer: it leads to the sign-in page.
      ctx={{ ...dashContext(c), switchPath: '/dashboard/login' }}
      formToken={await loginFormToken(c)}
      pending={pending}
      error={error}
    />,
    status,
  )
}

/** The words of a 429 with the minutes left; sets Retry-After. */
export function tooMany(c: DashC, retryAfterMs: number, key: 'loginRateLimited' | 'loginLocked') {
  c.header('Retry-After', retryAfterSeconds(retryAfterMs))
  const minutes = formatMinutes(Math.ceil(retryAfterMs / 60_000), c.get('dashLang'))
  return c.get('dt')(key, { minutes })
}

/** The words of a refused password or code attempt: the account's lock, or the address's. */
export function throttledWords(c: DashC, throttled: PasswordThrottled): string {
  const key = throttled.scope === 'account' ? 'loginLocked' : 'loginRateLimited'
  return tooMany(c, throttled.retryAfterMs, key)
}

/**
 * Whether a sign-in POST comes from this dashboard's own pages, as the browser tells: `Origin`,
 * else `Sec-Fetch-Site`. Browsers send `Origin: null` on the dashboard's own forms, whose pages
 * say `Referrer-Policy: no-referrer`, so null counts as absent. Neither header (an old browser,
 * a script) leaves it to the form's token, bound to the browser's pre-session cookie. A sibling
 * subdomain (`same-site`) is refused too: it could set cookies here.
 */
function fromOwnPages(c: DashC): boolean {
  const origin = c.req.header('origin')
  if (origin === undefined || origin === 'null') {
    const site = c.req.header('sec-fetch-site')
    return site === undefined || site === 'same-origin' || site === 'none'
  }
  if (!URL.canParse(origin)) return false
  const from = new URL(origin)
  if (from.origin === new URL(c.get('config').publicUrl).origin) return true
  // Behind a proxy that ends TLS the request's own URL says http: its host must match then.
  return from.host === new URL(c.req.url).host
}

/**
 * The checks every sign-in form passes before its fields are used: the page it was sent from,
 * the admin token's throttle (read before the body), the body's size, the form's token bound to
 * this browser. Returns the form, or the answer.
 */
export async function signInForm(c: DashC): Promise<Record<string, unknown> | Response> {
  if (!fromOwnPages(c)) return renderLogin(c, 403, { error: c.get('dt')('loginCrossSite') })
  const address = c.get('clientIp')(c)
  const throttled = await tokenGuessingThrottled(c.get('db'), address, c.get('clock')())
  if (throttled) {
    return renderLogin(c, 429, { error: tooMany(c, throttled.retryAfterMs, 'loginRateLimited') })
  }
  if (!(await holdBody(c, PUBLIC_FORM_BODY_LIMIT))) return tooLargePage(c)
  const form = await readForm(c)
  if (!(await verifyLoginFormToken(c, form._csrf))) {
    return renderLogin(c, 403, { error: c.get('dt')('forbiddenText') })
  }
  return form
}

/** The words of a 429 when too many password checks are under way at once; sets Retry-After. */
export function busy(c: DashC): string {
  c.header('Retry-After', '1')
  return c.get('dt')('loginBusy')
}

/** Opens the person's session; returns the first page their role shows. */
export async function finishSignIn(
  c: DashC,
  user: User,
  detail: Record<string, string>,
): Promise<string> {
  await startSession(c, { userId: user.id })
  await recordLogin(c.get('db'), user.id, c.get('clock')())
  await forgetWrongPasswords(c.get('db'), user.email)
  await auditRequest(c, { action: 'login', actor: userPrincipal(user), detail })
  c.get('log')({ level: 'info', event: 'dashboard_login', request_id: c.get('requestId') })
  return homeOf(user.role)
}
