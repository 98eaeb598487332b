import type { Invite } from '../../db/schema.js'
import { type DashContext, DashLayout } from './layout.js'
import { FieldError, NewPasswordField } from './parts.js'

/** Accepting an invitation: the e-mail and role it was made for; name and password to choose. */
export function InviteAcceptPage(props: {
  ctx: DashContext
  invite: Invite
  action: string
  formToken: string
  name?: string | undefined
  errors?: { name?: string | undefined; password?: string | undefined }
  alert?: string | undefined
}) {
  const { ctx, invite } = props
  const t = ctx.t
  const errors = props.errors ?? {}
  return (
    <DashLayout ctx={ctx} title={t('invTitle')}>
      <section class="card" aria-labelledby="inv-title">
        <h1 id="inv-title">{t('invTitle')}</h1>
        {props.alert ? (
          <p class="alert" role="alert">
            {props.alert}
          </p>
        ) : null}
        <p>
          {t('invFor', { role: t(`role_${invite.role}`) })} <bdi class="mono">{invite.email}</bdi>
        </p>
        <form method="post" action={props.action} novalidate>
          <input type="hidden" name="_csrf" value={props.formToken} />
          <label for="name">{t('invName')}</label>
          <input
            type="text"
            id="name"
            name="name"
            dir="auto"
            autocomplete="name"
            maxlength={100}
            value={props.name ?? ''}
            required
            aria-invalid={errors.name ? 'true' : undefined}
            aria-describedby={errors.name ? 'name-err' : undefined}
          />
          <FieldError id="name" error={errors.name} />
          <NewPasswordField ctx={ctx} label={t('invPassword')} error={errors.password} />
          <div class="actions">
            <button type="submit">{t('invAccept')}</button>
          </div>
        </form>
      </section>
    </DashLayout>
  )
}
