/**
 * The people of the store (/dashboard/people, owners and the admin token): invitations (the
 * one-time link shown once), roles, removal, signing a person or the whole store out, and the
 * two-factor requirement. The store never loses its last owner through this page: demoting or
 * removing the only owner is refused (the admin token would remain, but nobody would hold the
 * role by name).
 */
import { Hono } from 'hono'
import * as z from 'zod'
import { ROLES } from '../../db/schema.js'
import { PeoplePage } from '../../views/dashboard/people-page.js'
import { keyDetail } from '../auth/api-keys.js'
import { auditRequest } from '../auth/audit-request.js'
import { principalId } from '../auth/principal.js'
import { revokeKeysOfPerson } from '../data/api-keys.js'
import { createInvite, listOpenInvites, revokeInvite } from '../data/invites.js'
import { deleteAllSessions, deleteUserSessions } from '../data/sessions.js'
import { REQUIRE_TWO_FACTOR, setSetting, twoFactorRequired } from '../data/settings.js'
import { findUserByEmail, getUser, listUsers, removeUser, setRole } from '../data/users.js'
import { readForm } from '../lib/form-body.js'
import { type DashC, type DashEnv, dashContext } from './context.js'
import type { DashKey } from './messages.js'
import { endSession } from './session.js'

const HERE = '/dashboard/people'

const DONE: Record<string, DashKey> = {
  role: 'pplRoleDone',
  removed: 'pplRemovedDone',
  revoked: 'pplRevokedDone',
  loggedOut: 'pplLoggedOutDone',
  setting: 'pplSettingDone',
}

type PageExtras = Omit<
  Parameters<typeof PeoplePage>[0],
  'ctx' | 'people' | 'invites' | 'requireTwoFactor' | 'me'
>

async function page(c: DashC, status: 200 | 400 | 404 | 409, extras: PageExtras = {}) {
  const db = c.get('db')
  const now = c.get('clock')()
  const key = DONE[c.req.query('done') ?? '']
  const principal = c.get('principal')
  return c.html(
    <PeoplePage
      ctx={{ ...dashContext(c), switchPath: HERE }}
      people={await listUsers(db)}
      invites={await listOpenInvites(db, now)}
      requireTwoFactor={await twoFactorRequired(db)}
      me={principal ? principalId(principal) : null}
      notice={key ? c.get('dt')(key) : undefined}
      {...extras}
    />,
    status,
  )
}

const inviteForm = z.object({
  email: z.string().trim().toLowerCase().max(254).pipe(z.email()),
  role: z.enum(ROLES),
})
const roleForm = z.object({ role: z.enum(ROLES) })
const requireForm = z.object({ require: z.enum(['on', 'off']) })

export const peopleRoutes = new Hono<DashEnv>()

peopleRoutes.get('/people', (c) => page(c, 200))

peopleRoutes.post('/people/invites', async (c) => {
  const t = c.get('dt')
  const form = await readForm(c)
  const parsed = inviteForm.safeParse(form)
  const typed = typeof form.email === 'string' ? form.email.slice(0, 254) : ''
  const role = ROLES.find((r) => r === form.role) ?? 'cashier'
  if (!parsed.success) {
    return page(c, 400, { form: { email: typed, role, error: t('pplEmailInvalid') } })
  }
  const { email } = parsed.data
  if (await findUserByEmail(c.get('db'), email)) {
    return page(c, 409, { form: { email: typed, role, error: t('pplEmailTaken') } })
  }
  const principal = c.get('principal')
  const { invite, token } = await createInvite(
    c.get('db'),
    { email, role: parsed.data.role, invitedBy: principal ? principalId(principal) : null },
    c.get('clock')(),
  )
  await auditRequest(c, {
    action: 'invite_created',
    target: { kind: 'invite', id: invite.id },
    detail: { email, role: invite.role },
  })
  const inviteUrl = `${c.get('config').publicUrl}/dashboard/invite/${token}`
  return page(c, 200, { inviteUrl, notice: t('pplInvitedDone') })
})

peopleRoutes.post('/people/invites/:id/revoke', async (c) => {
  const id = c.req.param('id')
  if (!(await revokeInvite(c.get('db'), id, c.get('clock')()))) {
    return page(c, 404, { alert: c.get('dt')('pplInviteNotFound') })
  }
  await auditRequest(c, { action: 'invite_revoked', target: { kind: 'invite', id } })
  return c.redirect(`${HERE}?done=revoked`, 303)
})

peopleRoutes.post('/people/logout-everywhere', async (c) => {
  await auditRequest(c, { action: 'store_logout_everywhere' })
  await deleteAllSessions(c.get('db'))
  await endSession(c)
  return c.redirect('/dashboard/login?out', 303)
})

peopleRoutes.post('/people/require-two-factor', async (c) => {
  const parsed = requireForm.safeParse(await readForm(c))
  if (!parsed.success) return page(c, 400, { alert: c.get('dt')('pplRequireInvalid') })
  const on = parsed.data.require === 'on'
  await setSetting(c.get('db'), REQUIRE_TWO_FACTOR, on ? 'on' : 'off', c.get('clock')())
  await auditRequest(c, { action: 'settings_changed', detail: { require_two_factor: on } })
  return c.redirect(`${HERE}?done=setting`, 303)
})

peopleRoutes.post('/people/:id/role', async (c) => {
  const t = c.get('dt')
  const user = await getUser(c.get('db'), c.req.param('id'))
  if (!user) return page(c, 404, { alert: t('pplPersonNotFound') })
  const parsed = roleForm.safeParse(await readForm(c))
  if (!parsed.success) return page(c, 400, { alert: t('pplRoleInvalid') })
  const { role } = parsed.data
  // The last-owner rule is in the statement itself (src/data/users.ts): nothing to race.
  const result = await setRole(c.get('db'), user.id, role, c.get('clock')())
  if (result === 'not_found') return page(c, 404, { alert: t('pplPersonNotFound') })
  if (result === 'last_owner') return page(c, 409, { alert: t('pplLastOwner') })
  await auditRequest(c, {
    action: 'role_changed',
    target: { kind: 'user', id: user.id },
    detail: { email: user.email, from: user.role, to: role },
  })
  return c.redirect(`${HERE}?done=role`, 303)
})

peopleRoutes.post('/people/:id/remove', async (c) => {
  const t = c.get('dt')
  const user = await getUser(c.get('db'), c.req.param('id'))
  if (!user) return page(c, 404, { alert: t('pplPersonNotFound') })
  const result = await removeUser(c.get('db'), user.id)
  if (result === 'not_found') return page(c, 404, { alert: t('pplPersonNotFound') })
  if (result === 'last_owner') return page(c, 409, { alert: t('pplLastOwner') })
  await deleteUserSessions(c.get('db'), user.id)
  // Their keys, and the store keys they made, end with them (README, API keys).
  const keys = await revokeKeysOfPerson(c.get('db'), user.id, c.get('clock')())
  await auditRequest(c, {
    action: 'user_removed',
    target: { kind: 'user', id: user.id },
    detail: { email: user.email, role: user.role },
  })
  for (const key of keys)
    await auditRequest(c, {
      action: 'key_revoked',
      target: { kind: 'api_key', id: key.id },
      detail: { ...keyDetail(key), reason: 'person_removed' },
    })
  return c.redirect(`${HERE}?done=removed`, 303)
})

peopleRoutes.post('/people/:id/logout', async (c) => {
  const user = await getUser(c.get('db'), c.req.param('id'))
  if (!user) return page(c, 404, { alert: c.get('dt')('pplPersonNotFound') })
  const ended = await deleteUserSessions(c.get('db'), user.id)
  await auditRequest(c, {
    action: 'logout_everywhere',
    target: { kind: 'user', id: user.id },
    detail: { email: user.email, sessions: ended },
  })
  return c.redirect(`${HERE}?done=loggedOut`, 303)
})
