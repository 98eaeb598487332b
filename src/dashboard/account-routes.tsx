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
  setPasswordHash,
  setPendingTotpSecret,
  setRecoveryCodes,
} from '../data/users.js'
import { readForm } from '../lib/form-body.js'
import { recordWrongPassword } from '../security/password-guessing.js'
import { hashPassword, passwordProblem, verifyPassword } from '../security/passwords.js'
import { newTotpSecret, verifyTotp } from '../security/totp.js'
import { type DashC, type DashEnv, dashContext } from './context.js'
import { freshRecoveryCodes } from './enrol-routes.js'
import type { DashKey } from './messages.js'
import { PASSWORD_PROBLEM_KEYS } from './password-words.js'
import { endSession, startSession } from './session.js'
import { checkSecondFactor } from './sign-in.js'
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
  status: 200 | 400 | 401 | 409 = 200,
  errors?: { current?: string; password?: string; code?: string },
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
  if (!(await verifyPassword(current, user.passwordHash, iterations))) {
    await recordWrongPassword(c.get('db'), user.email, c.get('clientIp')(c), now)
    return page(c, user, 401, { current: t('accCurrentWrong') })
  }
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
  const secret = newTotpSecret()
  await setPendingTotpSecret(c.get('db'), user.id, secret, c.get('clock')())
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
  if (!(await checkSecondFactor(c.get('db'), user, form.code, now))) {
    await recordWrongPassword(c.get('db'), user.email, c.get('clientIp')(c), now)
    return page(c, user, 400, { code: t('tfWrong') })
  }
  await disableTotp(c.get('db'), user.id, now)
  await auditRequest(c, { action: 'twofactor_disabled', target: { kind: 'user', id: user.id } })
  return c.redirect(`${HERE}?done=disabled`, 303)
})

accountRoutes.post('/account/recovery-codes', async (c) => {
  const user = await me(c)
  if (!user || user.totpEnabledAt === null) return c.redirect(HERE, 303)
  const { codes, hashes } = await freshRecoveryCodes()
  await setRecoveryCodes(c.get('db'), user.id, hashes, c.get('clock')())
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
