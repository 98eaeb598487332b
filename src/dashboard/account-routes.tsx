/**
 * The signed-in person's own account (/dashboard/account): change the password, set up or turn
 * off two-factor sign-in, new recovery codes (shown once), sign out everywhere. With the admin
 * token only the last applies (its sessions).
 */
import { Hono } from 'hono'
import * as z from 'zod'
import type { User } from '../../db/schema.js'
import { AccountPage } from '../../views/dashboard/account-page.js'
import { EnrolPage, RecoveryCodesPage } from '../../views/dashboard/two-factor-parts.js'
import { auditRequest } from '../auth/audit-request.js'
import { deleteAdminSessions, deleteUserSessions } from '../data/sessions.js'
import { twoFactorRequired } from '../data/settings.js'
import {
  disableTotp,
  enableTotp,
  getUser,
  pendingTotpSecret,
  setPasswordHash,
  setRecoveryCodes,
  spendTotpStep,
} from '../data/users.js'
import { readForm } from '../lib/form-body.js'
import { giveBackPasswordAttempt, takePasswordAttempt } from '../security/password-guessing.js'
import { hashPassword, passwordProblem, verifyPassword } from '../security/passwords.js'
import { newTotpSecret, normaliseTotpCode, verifyTotp } from '../security/totp.js'
import { type DashC, type DashEnv, dashContext } from './context.js'
import { freshRecoveryCodes } from './enrol-routes.js'
import type { DashKey } from './messages.js'
import { PASSWORD_PROBLEM_KEYS } from './password-words.js'
import { endSession, startSession } from './session.js'
import { checkSecondFactor } from './sign-in.js'
import { throttledWords } from './sign-in-pages.js'
import { totpQrSvg } from './totp-qr.js'

const HERE = '/dashboard/account'

const DONE: Record<string, DashKey> = {
  password: 'accPasswordDone',
  enabled: 'accTwoFactorDone',
  disabled: 'accTwoFactorOffDone',
}

/** The signed-in person's row; null with the admin token (or a person removed meanwhile). */
async function me(c: DashC): Promise<User | null> {
  const principal = c.get('principal')
  return principal?.kind === 'user' ? getUser(c.get('db'), principal.userId) : null
}

function page(
  c: DashC,
  user: User | null,
  status: 200 | 400 | 401 | 409 | 429 = 200,
  errors?: { current?: string; password?: string; code?: string; confirm?: string },
) {
  const key = DONE[c.req.query('done') ?? '']
  const ctx = { ...dashContext(c), switchPath: HERE }
  return c.html(
    <AccountPage ctx={ctx} user={user} notice={key ? ctx.t(key) : undefined} errors={errors} />,
    status,
  )
}

function enrolPage(c: DashC, user: User, secret: string, status: 200 | 400, error?: string) {
  const ctx = { ...dashContext(c), switchPath: `${HERE}/two-factor` }
  return c.html(
    <EnrolPage
      ctx={ctx}
      action={`${HERE}/two-factor`}
      hidden={{ _csrf: c.get('csrf') ?? '' }}
      qrSvg={totpQrSvg(secret, c.get('config').merchantName, user.email, ctx.t('tfEnrolTitle'))}
      secret={secret}
      error={error}
    />,
    status,
  )
}

/**
 * Takes a guess's slots for the signed-in person, as a sign-in would (src/security/
 * password-guessing.ts), before a password is hashed or a code computed.
 */
function guess(c: DashC, user: User, now: number) {
  return takePasswordAttempt(c.get('db'), user.email, c.get('clientIp')(c), now)
}

/**
 * Whether `typed` is the person's password or a current code from their app (good once, like
 * at sign-in). Six digits are a code: no password is that short (at least 12 characters).
 */
async function confirmedByPasswordOrCode(
  c: DashC,
  user: User,
  typed: unknown,
  now: number,
): Promise<boolean> {
  if (typeof typed !== 'string' || typed.length === 0) return false
  if (normaliseTotpCode(typed) !== null) {
    if (!user.totpSecret) return false
    const step = await verifyTotp(user.totpSecret, typed, now)
    const fresh = step !== null && (user.totpLastStep === null || step > user.totpLastStep)
    return fresh && (await spendTotpStep(c.get('db'), user.id, step))
  }
  return verifyPassword(typed, user.passwordHash, c.get('passwordIterations'))
}

const passwordChange = z.object({
  current: z.string().max(1024),
  password: z.string().max(4096),
})

export const accountRoutes = new Hono<DashEnv>()

accountRoutes.get('/account', async (c) => page(c, await me(c)))

accountRoutes.post('/account/password', async (c) => {
  const user = await me(c)
  if (!user) return page(c, null, 409)
  const t = c.get('dt')
  const parsed = passwordChange.safeParse(await readForm(c))
  if (!parsed.success) return page(c, user, 400, { current: t('errRequired') })
  const { current, password } = parsed.data
  const iterations = c.get('passwordIterations')
  const now = c.get('clock')()
  // A stolen session must not guess the password it would need (here, or to sign in again).
  const attempt = await guess(c, user, now)
  if ('scope' in attempt) return page(c, user, 429, { current: throttledWords(c, attempt) })
  if (!(await verifyPassword(current, user.passwordHash, iterations))) {
    return page(c, user, 401, { current: t('accCurrentWrong') })
  }
  await giveBackPasswordAttempt(c.get('db'), attempt)
  const problem = passwordProblem(password)
  if (problem) return page(c, user, 400, { password: t(PASSWORD_PROBLEM_KEYS[problem]) })
  await setPasswordHash(c.get('db'), user.id, await hashPassword(password, iterations), now)
  // A changed password ends every other session of the person; this browser gets a fresh one.
  await deleteUserSessions(c.get('db'), user.id)
  await startSession(c, { userId: user.id })
  await auditRequest(c, { action: 'password_changed', target: { kind: 'user', id: user.id } })
  return c.redirect(`${HERE}?done=password`, 303)
})

accountRoutes.get('/account/two-factor', async (c) => {
  const user = await me(c)
  if (!user || user.totpEnabledAt !== null) return c.redirect(HERE, 303)
  // The key waiting for its first code stays until it is confirmed: reloading the page, or
  // switching its language, shows the one already scanned.
  const secret = await pendingTotpSecret(c.get('db'), user.id, newTotpSecret(), c.get('clock')())
  if (!secret) return c.redirect(HERE, 303)
  return enrolPage(c, user, secret, 200)
})

accountRoutes.post('/account/two-factor', async (c) => {
  const user = await me(c)
  if (!user || user.totpEnabledAt !== null || !user.totpSecret) return c.redirect(HERE, 303)
  const form = await readForm(c)
  const now = c.get('clock')()
  const step = await verifyTotp(user.totpSecret, form.code, now)
  if (step === null) return enrolPage(c, user, user.totpSecret, 400, c.get('dt')('tfWrong'))
  const { codes, hashes } = await freshRecoveryCodes()
  const secret = user.totpSecret
  if (!(await enableTotp(c.get('db'), user.id, { secret, step, recoveryHashes: hashes }, now)))
    return c.redirect(HERE, 303)
  await auditRequest(c, { action: 'twofactor_enabled', target: { kind: 'user', id: user.id } })
  const ctx = { ...dashContext(c), switchPath: HERE }
  return c.html(<RecoveryCodesPage ctx={ctx} codes={codes} next={HERE} signedIn />)
})

accountRoutes.post('/account/two-factor/disable', async (c) => {
  const user = await me(c)
  if (!user || user.totpEnabledAt === null) return c.redirect(HERE, 303)
  const t = c.get('dt')
  if (await twoFactorRequired(c.get('db'))) return page(c, user, 409, { code: t('accRequired') })
  const now = c.get('clock')()
  const form = await readForm(c)
  const attempt = await guess(c, user, now)
  if ('scope' in attempt) return page(c, user, 429, { code: throttledWords(c, attempt) })
  if (!(await checkSecondFactor(c.get('db'), user, form.code, now))) {
    return page(c, user, 400, { code: t('tfWrong') })
  }
  await giveBackPasswordAttempt(c.get('db'), attempt)
  await disableTotp(c.get('db'), user.id, now)
  await auditRequest(c, { action: 'twofactor_disabled', target: { kind: 'user', id: user.id } })
  return c.redirect(`${HERE}?done=disabled`, 303)
})

accountRoutes.post('/account/recovery-codes', async (c) => {
  const user = await me(c)
  if (!user || user.totpEnabledAt === null) return c.redirect(HERE, 303)
  const t = c.get('dt')
  const now = c.get('clock')()
  const form = await readForm(c)
  // New codes are a way in: only after the password or a current code, counted as a guess.
  const attempt = await guess(c, user, now)
  if ('scope' in attempt) return page(c, user, 429, { confirm: throttledWords(c, attempt) })
  if (!(await confirmedByPasswordOrCode(c, user, form.confirm, now))) {
    return page(c, user, 401, { confirm: t('accCodesConfirmWrong') })
  }
  await giveBackPasswordAttempt(c.get('db'), attempt)
  const { codes, hashes } = await freshRecoveryCodes()
  await setRecoveryCodes(c.get('db'), user.id, hashes, now)
  await auditRequest(c, { action: 'recovery_codes_renewed', target: { kind: 'user', id: user.id } })
  const ctx = { ...dashContext(c), switchPath: HERE }
  return c.html(<RecoveryCodesPage ctx={ctx} codes={codes} next={HERE} signedIn />)
})

accountRoutes.post('/account/logout-everywhere', async (c) => {
  const principal = c.get('principal')
  const db = c.get('db')
  if (principal?.kind === 'user') await deleteUserSessions(db, principal.userId)
  else await deleteAdminSessions(db)
  await auditRequest(c, { action: 'logout_everywhere' })
  await endSession(c)
  return c.redirect('/dashboard/login?out', 303)
})
