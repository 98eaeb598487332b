import { type Invite, ROLES, type Role, type User } from '../../db/schema.js'
import { formatDateTime } from '../../src/i18n/index.js'
import { Field } from '../field.js'
import { CsrfField, type DashContext, DashLayout } from './layout.js'
import { CopyButton } from './link-share.js'
import { Cell, Notice, StackTable } from './parts.js'
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

/** The column headings of the people and invitation tables. */
function columns(ctx: DashContext) {
  const t = ctx.t
  return {
    person: t('pplColPerson'),
    role: t('pplColRole'),
    twoFactor: t('pplColTwoFactor'),
    last: t('pplColLastLogin'),
    acts: t('pplColActions'),
  }
}

/** The invitation form as typed, with its error. */
type InviteForm = { email: string; role: Role; error?: string | undefined }

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
  form?: InviteForm
}) {
  const { ctx } = props
  const t = ctx.t
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
        {props.inviteUrl ? <InviteLinkShownOnce ctx={ctx} url={props.inviteUrl} /> : null}
        <InviteForm ctx={ctx} form={props.form ?? { email: '', role: 'cashier' }} />
      </section>
      <section class="card" aria-labelledby="ppl-list">
        <h2 id="ppl-list">{t('pplPeople')}</h2>
        <PeopleList ctx={ctx} people={props.people} me={props.me} />
        <h2>{t('pplInvites')}</h2>
        <OpenInvites ctx={ctx} invites={props.invites} />
      </section>
      <StoreSecurity ctx={ctx} requireTwoFactor={props.requireTwoFactor} />
    </DashLayout>
  )
}

/** The link of the invitation just made, with its copy button. */
function InviteLinkShownOnce(props: { ctx: DashContext; url: string }) {
  const t = props.ctx.t
  return (
    <div class="wh-secret" data-invite-link="true">
      <h2>{t('pplInviteLinkTitle')}</h2>
      <p>{t('pplInviteLinkOnce')}</p>
      <div class="url-row">
        <input
          type="text"
          id="invite-url"
          class="ltr"
          value={props.url}
          aria-label={t('pplInviteLinkTitle')}
          readonly
        />
        <CopyButton ctx={props.ctx} target="invite-url" label={t('copyLink')} />
      </div>
    </div>
  )
}

/** Inviting someone: their e-mail and the role they will have. */
function InviteForm(props: { ctx: DashContext; form: InviteForm }) {
  const { ctx, form } = props
  const t = ctx.t
  return (
    <>
      <h2>{t('pplInvite')}</h2>
      <form method="post" action="/dashboard/people/invites" novalidate>
        <CsrfField ctx={ctx} />
        <div class="grid">
          <Field
            id="invite-email"
            label={t('pplEmail')}
            type="email"
            attrs={{
              name: 'email',
              class: 'ltr',
              maxlength: 254,
              value: form.email,
              required: true,
            }}
            error={form.error}
            wrap
          />
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
    </>
  )
}

/** Everyone with an account: who, role (changeable), two-factor, last sign-in, and acts. */
function PeopleList(props: { ctx: DashContext; people: User[]; me: string | null }) {
  const { ctx } = props
  const t = ctx.t
  const col = columns(ctx)
  if (props.people.length === 0) return <p class="muted">{t('pplNone')}</p>
  return (
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
        <PersonRow ctx={ctx} person={u} me={props.me} />
      ))}
    </StackTable>
  )
}

/** One person's row of the people table. */
function PersonRow(props: { ctx: DashContext; person: User; me: string | null }) {
  const { ctx, person: u } = props
  const t = ctx.t
  const col = columns(ctx)
  const path = `/dashboard/people/${encodeURIComponent(u.id)}`
  return (
    <tr data-user-email={u.email}>
      <Cell label={col.person}>
        <span dir="auto">{u.name}</span>
        <span class="sub muted mono">{u.email}</span>
        {u.id === props.me ? <span class="sub muted">{t('pplYou')}</span> : null}
      </Cell>
      <Cell label={col.role}>
        <form class="people-acts" method="post" action={`${path}/role`}>
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
      <Cell label={col.last}>
        {u.lastLoginAt === null ? t('pplNever') : formatDateTime(u.lastLoginAt, ctx.lang)}
      </Cell>
      <Cell label={col.acts} wide>
        <div class="people-acts">
          <PostButton ctx={ctx} action={`${path}/logout`} label={t('pplLogoutPerson')} />
          <PostButton ctx={ctx} action={`${path}/remove`} label={t('pplRemove')} kind="danger" />
        </div>
      </Cell>
    </tr>
  )
}

/** The invitations not yet accepted: e-mail, role, until when, and revoking one. */
function OpenInvites(props: { ctx: DashContext; invites: Invite[] }) {
  const { ctx } = props
  const t = ctx.t
  const col = columns(ctx)
  if (props.invites.length === 0) return <p class="muted">{t('pplNoInvites')}</p>
  return (
    <StackTable
      columns={[
        { label: col.person },
        { label: col.role },
        { label: t('pplExpires') },
        { label: col.acts },
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
  )
}

/** The store's security: requiring two-factor sign-in, and signing everyone out. */
function StoreSecurity(props: { ctx: DashContext; requireTwoFactor: boolean }) {
  const { ctx, requireTwoFactor } = props
  const t = ctx.t
  return (
    <section class="card" aria-labelledby="ppl-security">
      <h2 id="ppl-security">{t('pplSecurity')}</h2>
      <form method="post" action="/dashboard/people/require-two-factor">
        <CsrfField ctx={ctx} />
        <input type="hidden" name="require" value={requireTwoFactor ? 'off' : 'on'} />
        <p>{requireTwoFactor ? t('pplRequireOn') : t('pplRequireOff')}</p>
        <button type="submit" class="small secondary">
          {requireTwoFactor ? t('pplRequireTurnOff') : t('pplRequireTurnOn')}
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
  )
}
