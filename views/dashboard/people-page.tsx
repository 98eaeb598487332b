import { type Invite, ROLES, type Role, type User } from '../../db/schema.js'
import { formatDateTime } from '../../src/i18n/index.js'
import { CsrfField, type DashContext, DashLayout } from './layout.js'
import { CopyButton } from './link-share.js'
import { Cell, FieldError, Notice, StackTable } from './parts.js'
import { PostButton } from './webhook-parts.js'

/** A role picker. */
function RoleSelect(props: { ctx: DashContext; id: string; value?: Role | undefined }) {
  return (
    <select id={props.id} name="role">
      {ROLES.map((role) => (
        <option value={role} selected={props.value === role}>
          {props.ctx.t(`role_${role}`)}
        </option>
      ))}
    </select>
  )
}

/**
 * The people of the store (owners only): invite by e-mail and role, the link just made (shown
 * once), everyone with role, two-factor state and last sign-in, the open invitations, the
 * two-factor requirement, and signing the whole store out.
 */
export function PeoplePage(props: {
  ctx: DashContext
  people: User[]
  invites: Invite[]
  requireTwoFactor: boolean
  /** The signed-in person's id (null for the admin token). */
  me: string | null
  /** The link of an invitation just made: this answer is the only one that shows it. */
  inviteUrl?: string | undefined
  notice?: string | undefined
  alert?: string | undefined
  form?: { email: string; role: Role; error?: string | undefined }
}) {
  const { ctx } = props
  const t = ctx.t
  const col = {
    person: t('pplColPerson'),
    role: t('pplColRole'),
    twoFactor: t('pplColTwoFactor'),
    last: t('pplColLastLogin'),
    acts: t('pplColActions'),
  }
  const form = props.form ?? { email: '', role: 'cashier' as Role }
  const when = (at: number | null) => (at === null ? t('pplNever') : formatDateTime(at, ctx.lang))
  return (
    <DashLayout ctx={ctx} title={t('pplTitle')} nav="people" script="share">
      <section class="card" aria-labelledby="ppl-title">
        <h1 id="ppl-title">{t('pplTitle')}</h1>
        <Notice text={props.notice} />
        {props.alert ? (
          <p class="alert" role="alert">
            {props.alert}
          </p>
        ) : null}
        <p class="muted">{t('pplIntro')}</p>
        {props.inviteUrl ? (
          <div class="wh-secret" data-invite-link="true">
            <h2>{t('pplInviteLinkTitle')}</h2>
            <p>{t('pplInviteLinkOnce')}</p>
            <div class="url-row">
              <input
                type="text"
                id="invite-url"
                class="ltr"
                value={props.inviteUrl}
                aria-label={t('pplInviteLinkTitle')}
                readonly
              />
              <CopyButton ctx={ctx} target="invite-url" label={t('copyLink')} />
            </div>
          </div>
        ) : null}
        <h2>{t('pplInvite')}</h2>
        <form method="post" action="/dashboard/people/invites" novalidate>
          <CsrfField ctx={ctx} />
          <div class="grid">
            <div>
              <label for="invite-email">{t('pplEmail')}</label>
              <input
                type="email"
                id="invite-email"
                name="email"
                class="ltr"
                maxlength={254}
                value={form.email}
                required
                aria-invalid={form.error ? 'true' : undefined}
                aria-describedby={form.error ? 'invite-email-err' : undefined}
              />
              <FieldError id="invite-email" error={form.error} />
            </div>
            <div>
              <label for="invite-role">{t('pplRole')}</label>
              <RoleSelect ctx={ctx} id="invite-role" value={form.role} />
            </div>
          </div>
          <p class="hint muted">{t('pplRolesHint')}</p>
          <div class="actions">
            <button type="submit">{t('pplInviteSubmit')}</button>
          </div>
        </form>
      </section>
      <section class="card" aria-labelledby="ppl-list">
        <h2 id="ppl-list">{t('pplPeople')}</h2>
        {props.people.length === 0 ? (
          <p class="muted">{t('pplNone')}</p>
        ) : (
          <StackTable
            columns={[
              { label: col.person },
              { label: col.role },
              { label: col.twoFactor },
              { label: col.last },
              { label: col.acts },
            ]}
          >
            {props.people.map((u) => (
              <tr data-user-email={u.email}>
                <Cell label={col.person}>
                  <span dir="auto">{u.name}</span>
                  <span class="sub muted mono">{u.email}</span>
                  {u.id === props.me ? <span class="sub muted">{t('pplYou')}</span> : null}
                </Cell>
                <Cell label={col.role}>
                  <form
                    class="people-acts"
                    method="post"
                    action={`/dashboard/people/${encodeURIComponent(u.id)}/role`}
                  >
                    <CsrfField ctx={ctx} />
                    <label class="sr-only" for={`role-${u.id}`}>
                      {col.role}
                    </label>
                    <RoleSelect ctx={ctx} id={`role-${u.id}`} value={u.role} />
                    <button type="submit" class="small secondary">
                      {t('pplChangeRole')}
                    </button>
                  </form>
                </Cell>
                <Cell label={col.twoFactor}>
                  {u.totpEnabledAt !== null ? t('pplTwoFactorOn') : t('pplTwoFactorOff')}
                </Cell>
                <Cell label={col.last}>{when(u.lastLoginAt)}</Cell>
                <Cell label={col.acts} wide>
                  <div class="people-acts">
                    <PostButton
                      ctx={ctx}
                      action={`/dashboard/people/${encodeURIComponent(u.id)}/logout`}
                      label={t('pplLogoutPerson')}
                    />
                    <PostButton
                      ctx={ctx}
                      action={`/dashboard/people/${encodeURIComponent(u.id)}/remove`}
                      label={t('pplRemove')}
                      kind="danger"
                    />
                  </div>
                </Cell>
              </tr>
            ))}
          </StackTable>
        )}
        <h2>{t('pplInvites')}</h2>
        {props.invites.length === 0 ? (
          <p class="muted">{t('pplNoInvites')}</p>
        ) : (
          <StackTable
            columns={[
              { label: col.person },
              { label: col.role },
              { label: t('pplExpires') },
              {
                label: col.acts,
              },
            ]}
          >
            {props.invites.map((i) => (
              <tr data-invite-email={i.email}>
                <Cell label={col.person}>
                  <span class="mono">{i.email}</span>
                </Cell>
                <Cell label={col.role}>{t(`role_${i.role}`)}</Cell>
                <Cell label={t('pplExpires')}>{formatDateTime(i.expiresAt, ctx.lang)}</Cell>
                <Cell label={col.acts}>
                  <PostButton
                    ctx={ctx}
                    action={`/dashboard/people/invites/${encodeURIComponent(i.id)}/revoke`}
                    label={t('pplRevoke')}
                    kind="danger"
                  />
                </Cell>
              </tr>
            ))}
          </StackTable>
        )}
      </section>
      <section class="card" aria-labelledby="ppl-security">
        <h2 id="ppl-security">{t('pplSecurity')}</h2>
        <form method="post" action="/dashboard/people/require-two-factor">
          <CsrfField ctx={ctx} />
          <input type="hidden" name="require" value={props.requireTwoFactor ? 'off' : 'on'} />
          <p>{props.requireTwoFactor ? t('pplRequireOn') : t('pplRequireOff')}</p>
          <button type="submit" class="small secondary">
            {props.requireTwoFactor ? t('pplRequireTurnOff') : t('pplRequireTurnOn')}
          </button>
        </form>
        <p>{t('pplStoreLogoutText')}</p>
        <PostButton
          ctx={ctx}
          action="/dashboard/people/logout-everywhere"
          label={t('pplStoreLogout')}
          kind="danger"
        />
      </section>
    </DashLayout>
  )
}
