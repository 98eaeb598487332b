/**
 * Accepting an invitation (`/dashboard/invite/:token`, open to everyone, before the session
 * check): the link's token names an open invitation; the person chooses a name and a password
 * and is signed in (after setting up two-factor when the store requires it).
 */
import { Hono } from 'hono'
import * as z from 'zod'
import { InviteAcceptPage } from '../../views/dashboard/invite-page.js'
import { DashMessagePage } from '../../views/dashboard/layout.js'
import { auditRequest } from '../auth/audit-request.js'
import { userPrincipal } from '../auth/principal.js'
import { findOpenInvite, markInviteAccepted } from '../data/invites.js'
import { twoFactorRequired } from '../data/settings.js'
import { createUser, findUserByEmail } from '../data/users.js'
import { hashPassword, passwordProblem } from '../security/passwords.js'
import { type DashC, type DashEnv, dashContext } from './context.js'
import { enrolAtSignIn } from './enrol-routes.js'
import { PASSWORD_PROBLEM_KEYS } from './password-words.js'
import { loginFormToken } from './session.js'
import { finishSignIn, signInForm } from './sign-in-pages.js'

function gone(c: DashC) {
  const ctx = dashContext(c)
  return c.html(
    <DashMessagePage
      ctx={ctx}
      title={ctx.t('invGoneTitle')}
      text={ctx.t('invGoneText')}
      action={{ href: '/dashboard/login', label: ctx.t('loginTitle') }}
    />,
    404,
  )
}

const acceptForm = z.object({
  name: z.string().trim().min(1).max(100),
  password: z.string().max(4096),
})

export const inviteRoutes = new Hono<DashEnv>()

inviteRoutes.get('/invite/:token', async (c) => {
  const invite = await findOpenInvite(c.get('db'), c.req.param('token'), c.get('clock')())
  if (!invite) return gone(c)
  return c.html(
    <InviteAcceptPage
      ctx={dashContext(c)}
      invite={invite}
      action={c.req.path}
      formToken={await loginFormToken(c)}
    />,
  )
})

inviteRoutes.post('/invite/:token', async (c) => {
  const form = await signInForm(c)
  if (form instanceof Response) return form
  const db = c.get('db')
  const now = c.get('clock')()
  const invite = await findOpenInvite(db, c.req.param('token'), now)
  if (!invite) return gone(c)
  const t = c.get('dt')
  const name = typeof form.name === 'string' ? form.name.slice(0, 100) : ''
  const again = async (
    status: 400 | 409,
    errors: { name?: string; password?: string },
    alert?: string,
  ) =>
    c.html(
      <InviteAcceptPage
        ctx={dashContext(c)}
        invite={invite}
        action={c.req.path}
        formToken={await loginFormToken(c)}
        name={name}
        errors={errors}
        alert={alert ?? t('fixErrors')}
      />,
      status,
    )
  const parsed = acceptForm.safeParse(form)
  if (!parsed.success) {
    const nameOk = acceptForm.shape.name.safeParse(form.name).success
    return again(400, nameOk ? { password: t('pwTooShort') } : { name: t('errRequired') })
  }
  const problem = passwordProblem(parsed.data.password)
  if (problem) return again(400, { password: t(PASSWORD_PROBLEM_KEYS[problem]) })
  if (await findUserByEmail(db, invite.email)) return again(409, {}, t('pplEmailTaken'))
  const passwordHash = await hashPassword(parsed.data.password, c.get('passwordIterations'))
  if (!(await markInviteAccepted(db, invite.id, now))) return gone(c)
  const user = await createUser(
    db,
    { email: invite.email, name: parsed.data.name, role: invite.role, passwordHash },
    now,
  )
  if (!user) return again(409, {}, t('pplEmailTaken'))
  await auditRequest(c, {
    action: 'invite_accepted',
    actor: userPrincipal(user),
    target: { kind: 'invite', id: invite.id },
    detail: { role: user.role },
  })
  if (await twoFactorRequired(db)) return enrolAtSignIn(c, user)
  return c.redirect(await finishSignIn(c, user, { method: 'invite' }), 303)
})
