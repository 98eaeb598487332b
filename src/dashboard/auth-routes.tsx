/**
 * Signing in with the admin token and signing out. Guessing is throttled per address and
 * everywhere (src/security/token-guessing.ts), counting wrong tokens only.
 */
import { Hono } from 'hono'
import { LoginPage } from '../../views/dashboard/login-page.js'
import { PUBLIC_FORM_BODY_LIMIT } from '../http/body-limits.js'
import { formatMinutes } from '../i18n/index.js'
import { holdBody } from '../lib/bounded-body.js'
import { readForm } from '../lib/form-body.js'
import { tooLargePage } from '../routes/error-pages.js'
import {
  recordWrongToken,
  retryAfterSeconds,
  tokenGuessingThrottled,
} from '../security/token-guessing.js'
import { checkAdminToken } from '../security/tokens.js'
import { type DashC, type DashEnv, dashContext } from './context.js'
import {
  currentSession,
  endSession,
  loginFormToken,
  startSession,
  verifyLoginFormToken,
} from './session.js'

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
  // Checked before the form is read. (The dashboard context only adds variables to the app's,
  // so it serves clientIp as it is.)
  const address = c.get('clientIp')(c)
  const throttled = await tokenGuessingThrottled(c.get('db'), address, now, 'login')
  if (throttled) {
    c.header('Retry-After', retryAfterSeconds(throttled.retryAfterMs))
    const minutes = formatMinutes(Math.ceil(throttled.retryAfterMs / 60_000), c.get('dashLang'))
    return renderLogin(c, 429, { error: t('loginRateLimited', { minutes }) })
  }
  if (!(await holdBody(c, PUBLIC_FORM_BODY_LIMIT))) return tooLargePage(c)
  const form = await readForm(c)
  if (!(await verifyLoginFormToken(c, form._csrf))) {
    return renderLogin(c, 403, { error: t('forbiddenText') })
  }
  if (!(await checkAdminToken(form.token, c.get('secrets').adminTokenHash))) {
    await recordWrongToken(c.var, address, now)
    c.get('log')({ level: 'warn', event: 'dashboard_login_failed', request_id: c.get('requestId') })
    return renderLogin(c, 401, { error: t('loginWrong') })
  }
  await startSession(c, 'admin')
  c.get('log')({ level: 'info', event: 'dashboard_login', request_id: c.get('requestId') })
  return c.redirect('/dashboard', 303)
})

/** `POST /dashboard/logout`: behind the session check, so it needs the form token too. */
export const logoutRoutes = new Hono<DashEnv>()

logoutRoutes.post('/logout', async (c) => {
  await endSession(c)
  return c.redirect('/dashboard/login?out', 303)
})
