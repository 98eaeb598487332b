import { type DashContext, DashLayout } from './layout.js'

/** The sign-in form: one password field for the admin token. */
export function LoginPage(props: {
  ctx: DashContext
  formToken: string
  error?: string | undefined
  notice?: string | undefined
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
        <form method="post" action="/dashboard/login">
          <input type="hidden" name="_csrf" value={props.formToken} />
          <label for="token">{t('loginToken')}</label>
          <input
            type="password"
            id="token"
            name="token"
            class="ltr"
            autocomplete="current-password"
            required
            aria-describedby="token-hint"
            aria-invalid={props.error ? 'true' : undefined}
          />
          <p id="token-hint" class="hint muted">
            {t('loginHint')}
          </p>
          <div class="actions">
            <button type="submit">{t('loginSubmit')}</button>
          </div>
        </form>
      </section>
    </DashLayout>
  )
}
