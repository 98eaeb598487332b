import { Field } from '../field.js'
import { type DashContext, DashLayout } from './layout.js'

/**
 * The sign-in page: e-mail and password for the people of the store, and below it the admin
 * token (the owner's break-glass login). `email` is what was typed, kept after a refusal.
 */
export function LoginPage(props: {
  ctx: DashContext
  formToken: string
  error?: string | undefined
  notice?: string | undefined
  email?: string | undefined
  /** Which form the error is about, for aria-invalid. */
  failed?: 'password' | 'token' | undefined
}) {
  const { ctx } = props
  const t = ctx.t
  return (
    <DashLayout ctx={ctx} title={t('loginTitle')}>
      <section class="card" aria-labelledby="login-title">
        <h1 id="login-title">{t('loginTitle')}</h1>
        {props.notice ? (
          <p class="alert ok" role="status">
            {props.notice}
          </p>
        ) : null}
        {props.error ? (
          <p class="alert" role="alert">
            {props.error}
          </p>
        ) : null}
        <form method="post" action="/dashboard/login/password" data-form="password">
          <input type="hidden" name="_csrf" value={props.formToken} />
          <Field
            id="email"
            label={t('loginEmail')}
            type="email"
            attrs={{
              name: 'email',
              class: 'ltr',
              autocomplete: 'username',
              maxlength: 254,
              value: props.email ?? '',
              required: true,
            }}
          />
          <Field
            id="password"
            label={t('loginPassword')}
            type="password"
            attrs={{
              name: 'password',
              class: 'ltr',
              autocomplete: 'current-password',
              maxlength: 1024,
              required: true,
            }}
            invalid={props.failed === 'password'}
          />
          <div class="actions">
            <button type="submit">{t('loginSubmit')}</button>
          </div>
        </form>
      </section>
      <section class="card" aria-labelledby="token-title">
        <h2 id="token-title">{t('loginTokenTitle')}</h2>
        <form method="post" action="/dashboard/login" data-form="token">
          <input type="hidden" name="_csrf" value={props.formToken} />
          <Field
            id="token"
            label={t('loginToken')}
            type="password"
            attrs={{ name: 'token', class: 'ltr', autocomplete: 'off', required: true }}
            hint={t('loginHint')}
            invalid={props.failed === 'token'}
            describedByFirst
          />
          <div class="actions">
            <button type="submit" class="secondary">
              {t('loginTokenSubmit')}
            </button>
          </div>
        </form>
      </section>
    </DashLayout>
  )
}
