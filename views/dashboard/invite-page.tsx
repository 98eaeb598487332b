import type { Invite } from '../../db/schema.js'
import { type DashContext, DashLayout } from './layout.js'
import { FieldError } from './parts.js'

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
          <label for="password">{t('invPassword')}</label>
          <input
            type="password"
            id="password"
            name="password"
            class="ltr"
            autocomplete="new-password"
            maxlength={1024}
            required
            aria-invalid={errors.password ? 'true' : undefined}
            aria-describedby={errors.password ? 'password-hint password-err' : 'password-hint'}
          />
          <p id="password-hint" class="hint muted">
            {t('pwRules')}
          </p>
          <FieldError id="password" error={errors.password} />
          <div class="actions">
            <button type="submit">{t('invAccept')}</button>
          </div>
        </form>
      </section>
    </DashLayout>
  )
}
