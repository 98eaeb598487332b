/**
 * Signing in and out. People sign in with e-mail and password (`/login/password`), then a code
 * when two-factor is on (or set it up first when the owner requires it); the admin token signs in
 * as the owner (`/login`, as it always did). Guessing is throttled: the admin token per address and everywhere
 * (src/security/token-guessing.ts), passwords and codes per account and per address
 * (src/security/password-guessing.ts).
 */
import { Hono } from 'hono'
import * as z from 'zod'
import { auditRequest } from '../auth/audit-request.js'
import { principalRole, userPrincipal } from '../auth/principal.js'
import { twoFactorRequired } from '../data/settings.js'
import { getUser } from '../data/users.js'
import { giveBackPasswordAttempt, takePasswordAttempt } from '../security/password-guessing.js'
import { BUSY, passwordChecks } from '../security/password-work.js'
import {
  giveBackTokenAttempt,
  recordWrongToken,
  takeTokenAttempt,
} from '../security/token-guessing.js'
import { checkAdminToken } from '../security/tokens.js'
import type { DashC, DashEnv } from './context.js'
import { enrolAtSignIn, enrolRoutes } from './enrol-routes.js'
import { homeOf } from './home.js'
import { currentSession, endSession, startSession } from './session.js'
import { checkPassword, checkSecondFactor, issuePending, verifyPending } from './sign-in.js'
import {
  busy,
  finishSignIn,
  renderCode,
  renderLogin,
  signInForm,
  throttledWords,
  tooMany,
} from './sign-in-pages.js'

const passwordForm = z.object({
  email: z.string().trim().min(1).max(254),
  password: z.string().min(1).max(1024),
})

/** `GET/POST /dashboard/login[/password, /code, /enrol]`: open to everyone, before the session check. */
export const loginRoutes = new Hono<DashEnv>()

loginRoutes.get('/login', async (c) => {
  // Already signed in: the first page the role may open, as after signing in.
  const signedIn = await currentSession(c)
  if (signedIn) return c.redirect(homeOf(principalRole(signedIn.principal)), 303)
  const notice = c.req.query('out') !== undefined ? c.get('dt')('loggedOut') : undefined
  return renderLogin(c, 200, { notice })
})

/** The admin token: the owner's break-glass sign-in, the form it always had. */
loginRoutes.post('/login', async (c) => {
  const form = await signInForm(c)
  if (form instanceof Response) return form
  return adminTokenSignIn(c, form.token)
})

/** A person's e-mail and password; then the code, or setting up two-factor when required. */
loginRoutes.post('/login/password', async (c) => {
  const form = await signInForm(c)
  if (form instanceof Response) return form
  const t = c.get('dt')
  const parsed = passwordForm.safeParse(form)
  if (!parsed.success) {
    const email = typeof form.email === 'string' ? form.email.slice(0, 254) : ''
    return renderLogin(c, 400, { error: t('loginMissing'), email, failed: 'password' })
  }
  const { email, password } = parsed.data
  const db = c.get('db')
  const address = c.get('clientIp')(c)
  const now = c.get('clock')()
  // The slots first: a burst of guesses is counted before any is hashed.
  const attempt = await takePasswordAttempt(db, email, address, now)
  if (!('account' in attempt)) {
    return renderLogin(c, 429, { error: throttledWords(c, attempt), email })
  }
  const user = await passwordChecks.run(() => checkPassword(c.var, email, password))
  if (user === BUSY) {
    await giveBackPasswordAttempt(db, attempt)
    return renderLogin(c, 429, { error: busy(c), email })
  }
  if (!user) {
    await auditRequest(c, {
      action: 'login_failed',
      actor: null,
      actorLabel: email.toLowerCase(),
      detail: { method: 'password' },
    })
    return renderLogin(c, 401, { error: t('loginWrongPassword'), email, failed: 'password' })
  }
  // A right password is no guess; the code (or the set-up) that follows takes its own slots.
  await giveBackPasswordAttempt(db, attempt)
  if (user.totpEnabledAt !== null) {
    const pending = await issuePending(c.get('secrets').sessionSecret, 'code', user.id, now)
    return renderCode(c, 200, pending)
  }
  if (await twoFactorRequired(db)) return enrolAtSignIn(c, user)
  return c.redirect(await finishSignIn(c, user, { method: 'password' }), 303)
})

async function adminTokenSignIn(c: DashC, token: unknown) {
  const address = c.get('clientIp')(c)
  const now = c.get('clock')()
  const attempt = await takeTokenAttempt(c.var, address, now)
  if ('scope' in attempt) {
    return renderLogin(c, 429, { error: tooMany(c, attempt.retryAfterMs, 'loginRateLimited') })
  }
  if (!(await checkAdminToken(token, c.get('secrets').adminTokenHash))) {
    await recordWrongToken(c.var, attempt, now)
    await auditRequest(c, {
      action: 'login_failed',
      actor: null,
      actorLabel: 'admin token',
      detail: { method: 'admin_token' },
    })
    c.get('log')({ level: 'warn', event: 'dashboard_login_failed', request_id: c.get('requestId') })
    return renderLogin(c, 401, { error: c.get('dt')('loginWrong'), failed: 'token' })
  }
  await giveBackTokenAttempt(c.get('db'), attempt)
  await startSession(c, 'admin')
  await auditRequest(c, {
    action: 'login',
    actor: { kind: 'admin' },
    detail: { method: 'admin_token' },
  })
  c.get('log')({ level: 'info', event: 'dashboard_login', request_id: c.get('requestId') })
  return c.redirect('/dashboard', 303)
}

loginRoutes.post('/login/code', async (c) => {
  const form = await signInForm(c)
  if (form instanceof Response) return form
  const t = c.get('dt')
  const db = c.get('db')
  const now = c.get('clock')()
  const userId = await verifyPending(c.get('secrets').sessionSecret, 'code', form.pending, now)
  const user = userId ? await getUser(db, userId) : null
  if (!user || user.disabledAt !== null || user.totpEnabledAt === null) {
    return renderLogin(c, 400, { error: t('tfExpired') })
  }
  const pending = form.pending as string
  const address = c.get('clientIp')(c)
  const attempt = await takePasswordAttempt(db, user.email, address, now)
  if (!('account' in attempt)) return renderCode(c, 429, pending, throttledWords(c, attempt))
  const passed = await checkSecondFactor(db, user, form.code, now)
  if (!passed) {
    await auditRequest(c, {
      action: 'login_failed',
      actor: null,
      actorLabel: user.email,
      detail: { method: 'password', step: 'code' },
    })
    return renderCode(c, 401, pending, t('tfWrong'))
  }
  await giveBackPasswordAttempt(db, attempt)
  if (passed === 'recovery') {
    const left = (user.recoveryCodes ?? []).filter(Boolean).length - 1
    await auditRequest(c, {
      action: 'recovery_code_used',
      actor: userPrincipal(user),
      detail: { left },
    })
  }
  return c.redirect(await finishSignIn(c, user, { method: 'password', second: passed }), 303)
})

loginRoutes.route('/', enrolRoutes)

/** `POST /dashboard/logout`: behind the session check, so it needs the form token too. */
export const logoutRoutes = new Hono<DashEnv>()

logoutRoutes.post('/logout', async (c) => {
  await auditRequest(c, { action: 'logout' })
  await endSession(c)
  return c.redirect('/dashboard/login?out', 303)
})
