/**
 * Signing in to the dashboard: a session cookie holding a random token whose hash is kept in the
 * database (src/data/sessions.ts), a form token bound to that session on every POST (before it,
 * the sign-in forms' token is bound to a pre-session cookie), and the page language. The request's principal (src/auth/principal.ts) comes from the session.
 */
import type { MiddlewareHandler } from 'hono'
import { deleteCookie, getCookie, setCookie } from 'hono/cookie'
import type { CookieOptions } from 'hono/utils/cookie'
import type { Principal } from '../auth/principal.js'
import { createSession, deleteSession, findSession } from '../data/sessions.js'
import {
  DASHBOARD_FORM_BODY_LIMIT,
  isImageFormPath,
  LOGO_FORM_BODY_LIMIT,
} from '../http/body-limits.js'
import { pickLanguage } from '../i18n/index.js'
import { holdBody } from '../lib/bounded-body.js'
import { randomBytes, toBase64Url } from '../lib/bytes.js'
import { readForm } from '../lib/form-body.js'
import { issueToken, verifyToken } from '../security/tokens.js'
import type { DashC, DashEnv } from './context.js'

export const SESSION_COOKIE = 'paylinks_session'
export const LANGUAGE_COOKIE = 'paylinks_dashboard_lang'
export const SESSION_MAX_AGE_MS = 12 * 60 * 60_000
/**
 * Admin-token sessions record which admin token opened them: replacing a leaked ADMIN_TOKEN
 * ends every one of them at once.
 */
const adminKey = (c: DashC) => c.get('secrets').adminTokenHash.slice(0, 16)
/** The cookie of a browser not signed in yet, which the sign-in forms' tokens are bound to. */
export const PRESESSION_COOKIE = 'paylinks_presession'
const loginScope = (presession: string) => `dashboard:login:${presession}`

/** The scope of the form tokens of one session: a token is worthless with another session. */
const formScope = (session: string) => `dashboard:${session}`

function cookieOptions(c: DashC, maxAgeMs: number): CookieOptions {
  return {
    path: '/dashboard',
    httpOnly: true,
    sameSite: 'Lax',
    secure: c.get('config').publicUrl.startsWith('https://'),
    maxAge: Math.floor(maxAgeMs / 1000),
  }
}

/**
 * Picks the dashboard language (`?lang=`, then the one chosen earlier, then Accept-Language, then
 * DEFAULT_LANGUAGE) and remembers a `?lang=` choice in a cookie so the next page keeps it.
 * Dashboard pages are private: none may be cached (src/http/no-store.ts, for every one of them).
 */
export function dashboardLanguage(): MiddlewareHandler<DashEnv> {
  return async (c, next) => {
    const query = c.req.query('lang')
    const lang = pickLanguage({
      query,
      link: getCookie(c, LANGUAGE_COOKIE),
      acceptLanguage: c.req.header('accept-language'),
      fallback: c.get('brand').current().defaultLanguage,
    })
    if (query === lang) setCookie(c, LANGUAGE_COOKIE, lang, cookieOptions(c, 365 * 86_400_000))
    c.set('dashLang', lang)
    const kit = await c.get('dashboardKit')(lang)
    c.set('dt', kit.t)
    c.set('dashCss', kit.css)
    c.set('dashScripts', kit.scripts)
    await next()
  }
}

/** The request's live session: its token and principal, or null. */
export async function currentSession(
  c: DashC,
): Promise<{ token: string; principal: Principal } | null> {
  const token = getCookie(c, SESSION_COOKIE)
  if (!token) return null
  const owner = await findSession(c.get('db'), token, c.get('clock')())
  if (!owner) return null
  if (owner.kind === 'admin') {
    return owner.adminKey === adminKey(c) ? { token, principal: { kind: 'admin' } } : null
  }
  const { userId, email, name, role } = owner
  return { token, principal: { kind: 'user', userId, email, name, role } }
}

/** Signs in: a fresh session (12 hours) for a person, or for the admin token. */
export async function startSession(c: DashC, who: { userId: string } | 'admin'): Promise<void> {
  const owner = who === 'admin' ? { adminKey: adminKey(c) } : who
  const token = await createSession(c.get('db'), owner, c.get('clock')(), SESSION_MAX_AGE_MS)
  setCookie(c, SESSION_COOKIE, token, cookieOptions(c, SESSION_MAX_AGE_MS))
}

/** Signs out of this browser: the session ends and the cookie expires. */
export async function endSession(c: DashC): Promise<void> {
  const token = getCookie(c, SESSION_COOKIE)
  if (token) await deleteSession(c.get('db'), token)
  deleteCookie(c, SESSION_COOKIE, cookieOptions(c, 0))
}

/**
 * The signed-out browser's id, from its cookie, or a fresh one whose cookie is set now. Sign-in
 * forms' tokens are bound to it, so a token fetched by another browser (a site signing its
 * visitors into an account of its choosing) is worthless here.
 */
function presession(c: DashC): string {
  const known = c.get('presession') ?? getCookie(c, PRESESSION_COOKIE)
  const id = known && /^[0-9A-Za-z_-]{24}$/.test(known) ? known : undefined
  if (id) {
    c.set('presession', id)
    return id
  }
  const fresh = toBase64Url(randomBytes(18))
  setCookie(c, PRESESSION_COOKIE, fresh, cookieOptions(c, SESSION_MAX_AGE_MS))
  c.set('presession', fresh)
  return fresh
}

/** The sign-in forms' token: it carries no session yet, only the browser and the time it was shown. */
export function loginFormToken(c: DashC): Promise<string> {
  return issueToken(c.get('secrets').sessionSecret, loginScope(presession(c)), c.get('clock')())
}

/** Whether a posted sign-in form carries a token this dashboard issued to this browser. */
export function verifyLoginFormToken(c: DashC, token: unknown): Promise<boolean> {
  const id = getCookie(c, PRESESSION_COOKIE)
  if (!id || !/^[0-9A-Za-z_-]{24}$/.test(id)) return Promise.resolve(false)
  return verifyToken(
    c.get('secrets').sessionSecret,
    loginScope(id),
    token,
    c.get('clock')(),
    SESSION_MAX_AGE_MS,
  )
}

/**
 * Lets only signed-in requests through: others are sent to the login page (303, nothing done).
 * A POST must also carry the session's form token in `_csrf`; `refuse` answers when it does not,
 * `tooLarge` when its body is over DASHBOARD_FORM_BODY_LIMIT (LOGO_FORM_BODY_LIMIT for an image's
 * form: the logo's, a product's), with the session known to it but the body unread.
 */
export function requireSession(
  refuse: (c: DashC) => Response | Promise<Response>,
  tooLarge: (c: DashC) => Response | Promise<Response>,
): MiddlewareHandler<DashEnv> {
  return async (c, next) => {
    const current = await currentSession(c)
    if (!current) return c.redirect('/dashboard/login', 303)
    const session = current.token
    const secret = c.get('secrets').sessionSecret
    const now = c.get('clock')()
    // What the dashboard's pages read of the session: who, and a fresh token for their forms.
    const hold = async () => {
      c.set('session', session)
      c.set('principal', current.principal)
      c.set('csrf', await issueToken(secret, formScope(session), now))
    }
    if (c.req.method === 'POST') {
      // Read only now that the session is known to be the merchant's, and only so far.
      const limit = isImageFormPath(c.req.path) ? LOGO_FORM_BODY_LIMIT : DASHBOARD_FORM_BODY_LIMIT
      if (!(await holdBody(c, limit))) {
        // The body was not read, so neither was its form token: `tooLarge` changes nothing, but
        // may show the signed-in page the form came from (the logo's), which needs the session.
        await hold()
        return tooLarge(c)
      }
      const form = await readForm(c)
      if (!(await verifyToken(secret, formScope(session), form._csrf, now, SESSION_MAX_AGE_MS)))
        return refuse(c)
    }
    await hold()
    await next()
  }
}
