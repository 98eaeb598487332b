/** Signing in with the admin token (rate limited per address) and signing out. */
import { Hono } from 'hono'
import { LoginPage } from '../../views/dashboard/login-page.js'
import { hitRateLimit } from '../data/rate-limits.js'
import { holdBody, PUBLIC_FORM_BODY_LIMIT } from '../middleware/body-limits.js'
import { checkAdminToken } from '../security/tokens.js'
import { type DashC, type DashEnv, dashContext } from './context.js'
import { tooLargePage } from './refusals.js'
import {
  currentSession,
  endSession,
  loginFormToken,
  startSession,
  verifyLoginFormToken,
} from './session.js'

const LOGIN_LIMIT = { perWindow: 10, windowMs: 60_000 }

async function renderLogin(
  c: DashC,
  status: 200 | 401 | 403 | 429,
  message?: { error?: string; notice?: string },
) {
  const ctx = dashContext(c)
  return c.html(
    <LoginPage
      ctx={ctx}
      formToken={await loginFormToken(c)}
      error={message?.error}
      notice={message?.notice}
    />,
    status,
  )
}

/** `GET/POST /dashboard/login`: open to everyone, so mounted before the session check. */
export const loginRoutes = new Hono<DashEnv>()

loginRoutes.get('/login', async (c) => {
  if (await currentSession(c)) return c.redirect('/dashboard', 303)
  const notice = c.req.query('out') !== undefined ? c.get('dt')('loggedOut') : undefined
  return renderLogin(c, 200, { notice })
})

loginRoutes.post('/login', async (c) => {
  const t = c.get('dt')
  const now = c.get('clock')()
  // Every attempt counts, right or wrong: ten a minute is plenty for a person, too few to guess.
  // (The dashboard context only adds variables to the app's, so it serves clientIp as it is.)
  const limit = await hitRateLimit(
    c.get('db'),
    `dashboard-login:${c.get('clientIp')(c)}`,
    LOGIN_LIMIT.perWindow,
    LOGIN_LIMIT.windowMs,
    now,
  )
  if (!limit.allowed) {
    c.header('Retry-After', String(Math.max(1, Math.ceil((limit.resetAt - now) / 1000))))
    return renderLogin(c, 429, { error: t('loginRateLimited') })
  }
  if (!(await holdBody(c, PUBLIC_FORM_BODY_LIMIT))) return tooLargePage(c)
  const form = await c.req.parseBody()
  if (!(await verifyLoginFormToken(c, form._csrf))) {
    return renderLogin(c, 403, { error: t('forbiddenText') })
  }
  if (!(await checkAdminToken(form.token, c.get('secrets').adminTokenHash))) {
    c.get('log')({ level: 'warn', event: 'dashboard_login_failed', request_id: c.get('requestId') })
    return renderLogin(c, 401, { error: t('loginWrong') })
  }
  await startSession(c)
  c.get('log')({ level: 'info', event: 'dashboard_login', request_id: c.get('requestId') })
  return c.redirect('/dashboard', 303)
})

/** `POST /dashboard/logout`: behind the session check, so it needs the form token too. */
export const logoutRoutes = new Hono<DashEnv>()

logoutRoutes.post('/logout', (c) => {
  endSession(c)
  return c.redirect('/dashboard/login?out', 303)
})
