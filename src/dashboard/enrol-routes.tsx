/**
 * Setting up two-factor sign-in during a sign-in, when the owner requires it of everyone and the
 * person has none: after the password (or accepting an invitation) the person scans the secret,
 * confirms a code, sees the recovery codes once, and only then gets a session.
 */
import { Hono } from 'hono'
import type { User } from '../../db/schema.js'
import { EnrolPage, RecoveryCodesPage } from '../../views/dashboard/two-factor-parts.js'
import { auditRequest } from '../auth/audit-request.js'
import { userPrincipal } from '../auth/principal.js'
import { enableTotp, getUser, setPendingTotpSecret } from '../data/users.js'
import { passwordGuessingThrottled, recordWrongPassword } from '../security/password-guessing.js'
import { hashRecoveryCode, newRecoveryCodes } from '../security/recovery-codes.js'
import { newTotpSecret, verifyTotp } from '../security/totp.js'
import { type DashC, type DashEnv, dashContext } from './context.js'
import { loginFormToken } from './session.js'
import { issuePending, verifyPending } from './sign-in.js'
import {
  finishSignIn,
  renderLogin,
  type SignInStatus,
  signInForm,
  tooMany,
} from './sign-in-pages.js'
import { totpQrSvg } from './totp-qr.js'

/** Ten new recovery codes and their stored hashes. */
export async function freshRecoveryCodes(): Promise<{ codes: string[]; hashes: string[] }> {
  const codes = newRecoveryCodes(10)
  return { codes, hashes: await Promise.all(codes.map(hashRecoveryCode)) }
}

async function renderEnrol(
  c: DashC,
  user: User,
  secret: string,
  status: SignInStatus,
  error?: string,
) {
  const now = c.get('clock')()
  const ctx = { ...dashContext(c), switchPath: '/dashboard/login' }
  const pending = await issuePending(c.get('secrets').sessionSecret, 'enrol', user.id, now)
  return c.html(
    <EnrolPage
      ctx={ctx}
      action="/dashboard/login/enrol"
      hidden={{ _csrf: await loginFormToken(c), pending }}
      qrSvg={totpQrSvg(secret, c.get('config').merchantName, user.email, ctx.t('tfEnrolTitle'))}
      secret={secret}
      required
      error={error}
    />,
    status,
  )
}

/** The set-up page in place of a session, for a person the store requires two-factor of. */
export async function enrolAtSignIn(c: DashC, user: User) {
  const secret = newTotpSecret()
  await setPendingTotpSecret(c.get('db'), user.id, secret, c.get('clock')())
  return renderEnrol(c, user, secret, 200)
}

/** `POST /dashboard/login/enrol`: confirms the code, turns two-factor on, opens the session. */
export const enrolRoutes = new Hono<DashEnv>()

enrolRoutes.post('/login/enrol', async (c) => {
  const form = await signInForm(c)
  if (form instanceof Response) return form
  const db = c.get('db')
  const now = c.get('clock')()
  const userId = await verifyPending(c.get('secrets').sessionSecret, 'enrol', form.pending, now)
  const user = userId ? await getUser(db, userId) : null
  if (!user || user.disabledAt !== null || !user.totpSecret || user.totpEnabledAt !== null) {
    return renderLogin(c, 400, { error: c.get('dt')('tfExpired') })
  }
  const address = c.get('clientIp')(c)
  const throttled = await passwordGuessingThrottled(db, user.email, address, now)
  if (throttled) {
    const key = throttled.scope === 'account' ? 'loginLocked' : 'loginRateLimited'
    return renderEnrol(c, user, user.totpSecret, 429, tooMany(c, throttled.retryAfterMs, key))
  }
  const step = await verifyTotp(user.totpSecret, form.code, now)
  if (step === null) {
    await recordWrongPassword(db, user.email, address, now)
    return renderEnrol(c, user, user.totpSecret, 400, c.get('dt')('tfWrong'))
  }
  const { codes, hashes } = await freshRecoveryCodes()
  const secret = user.totpSecret
  if (!(await enableTotp(db, user.id, { secret, step, recoveryHashes: hashes }, now))) {
    return renderLogin(c, 400, { error: c.get('dt')('tfExpired') })
  }
  await auditRequest(c, { action: 'twofactor_enabled', actor: userPrincipal(user) })
  const next = await finishSignIn(c, user, { method: 'password', second: 'enrolled' })
  return c.html(
    <RecoveryCodesPage
      ctx={{ ...dashContext(c), switchPath: next }}
      codes={codes}
      next={next}
      signedIn={false}
    />,
  )
})
