import type { Invite } from '../../db/schema.js'
import { Field } from '../field.js'
import { type DashContext, DashLayout } from './layout.js'
import { NewPasswordField } from './parts.js'

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
          <Field
            id="name"
            label={t('invName')}
            type="text"
            attrs={{
              name: 'name',
              dir: 'auto',
              autocomplete: 'name',
              maxlength: 100,
              value: props.name ?? '',
              required: true,
            }}
            error={errors.name}
          />
          <NewPasswordField ctx={ctx} label={t('invPassword')} error={errors.password} />
          <div class="actions">
            <button type="submit">{t('invAccept')}</button>
          </div>
        </form>
      </section>
    </DashLayout>
  )
}
