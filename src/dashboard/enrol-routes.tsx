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
import { enableTotp, getUser, pendingTotpSecret } from '../data/users.js'
import { giveBackPasswordAttempt, takePasswordAttempt } from '../security/password-guessing.js'
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
  throttledWords,
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

/**
 * The set-up page in place of a session, for a person the store requires two-factor of. The key
 * waiting for its first code is kept: signing in again (or reloading the page, or switching its
 * language, which both lead through the password) shows the one already scanned.
 */
export async function enrolAtSignIn(c: DashC, user: User) {
  const secret = await pendingTotpSecret(c.get('db'), user.id, newTotpSecret(), c.get('clock')())
  if (!secret) return renderLogin(c, 400, { error: c.get('dt')('tfExpired') })
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
  const attempt = await takePasswordAttempt(db, user.email, address, now)
  if (!('account' in attempt)) {
    return renderEnrol(c, user, user.totpSecret, 429, throttledWords(c, attempt))
  }
  const step = await verifyTotp(user.totpSecret, form.code, now)
  if (step === null) return renderEnrol(c, user, user.totpSecret, 400, c.get('dt')('tfWrong'))
  await giveBackPasswordAttempt(db, attempt)
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
