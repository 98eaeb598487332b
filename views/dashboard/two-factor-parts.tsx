import { raw } from 'hono/html'
import { Field } from '../field.js'
import { type DashContext, DashLayout } from './layout.js'

/** The code field of a second step: six digits from the app, or a recovery code. */
function CodeField(props: { ctx: DashContext; error?: string | undefined; hint: string }) {
  // The error is the page's alert, above the form.
  return (
    <Field
      id="code"
      label={props.ctx.t('tfCode')}
      type="text"
      attrs={{
        name: 'code',
        class: 'ltr',
        inputmode: 'text',
        autocomplete: 'one-time-code',
        maxlength: 32,
        required: true,
      }}
      hint={props.hint}
      invalid={Boolean(props.error)}
      describedByFirst
    />
  )
}

/** The second step of a sign-in: the pending token and a code. */
export function SecondStepPage(props: {
  ctx: DashContext
  formToken: string
  pending: string
  error?: string | undefined
}) {
  const { ctx } = props
  const t = ctx.t
  return (
    <DashLayout ctx={ctx} title={t('tfStepTitle')}>
      <section class="card" aria-labelledby="tf-title">
        <h1 id="tf-title">{t('tfStepTitle')}</h1>
        {props.error ? (
          <p class="alert" role="alert">
            {props.error}
          </p>
        ) : null}
        <form method="post" action="/dashboard/login/code">
          <input type="hidden" name="_csrf" value={props.formToken} />
          <input type="hidden" name="pending" value={props.pending} />
          <CodeField ctx={ctx} error={props.error} hint={t('tfCodeHint')} />
          <div class="actions">
            <button type="submit">{t('tfVerify')}</button>
            <a href="/dashboard/login">{t('tfCancel')}</a>
          </div>
        </form>
      </section>
    </DashLayout>
  )
}

/**
 * Setting up two-factor sign-in: the secret as a QR code and as text, confirmed with a code.
 * `hidden` are the form's own fields (the session's form token, or the pending sign-in's).
 */
export function EnrolPage(props: {
  ctx: DashContext
  action: string
  hidden: Record<string, string>
  qrSvg: string
  secret: string
  required?: boolean
  error?: string | undefined
}) {
  const { ctx } = props
  const t = ctx.t
  const grouped = props.secret.replace(/(.{4})(?=.)/g, '$1 ')
  return (
    <DashLayout ctx={ctx} title={t('tfEnrolTitle')} nav={props.required ? undefined : 'account'}>
      <section class="card qr-enrol" aria-labelledby="enrol-title">
        <h1 id="enrol-title">{t('tfEnrolTitle')}</h1>
        {props.required ? <p class="alert">{t('tfRequiredNow')}</p> : null}
        {props.error ? (
          <p class="alert" role="alert">
            {props.error}
          </p>
        ) : null}
        <p>{t('tfEnrolScan')}</p>
        <div data-qr="totp">{raw(props.qrSvg)}</div>
        <p>{t('tfEnrolManual')}</p>
        <p class="mono" data-secret="totp">
          {grouped}
        </p>
        <form method="post" action={props.action}>
          {Object.entries(props.hidden).map(([name, value]) => (
            <input type="hidden" name={name} value={value} />
          ))}
          <CodeField ctx={ctx} error={props.error} hint={t('tfEnrolCodeHint')} />
          <div class="actions">
            <button type="submit">{t('tfEnrolConfirm')}</button>
          </div>
        </form>
      </section>
    </DashLayout>
  )
}

/** Recovery codes, on the one answer that shows them. */
export function RecoveryCodesPage(props: {
  ctx: DashContext
  codes: string[]
  next: string
  signedIn: boolean
}) {
  const { ctx } = props
  const t = ctx.t
  return (
    <DashLayout ctx={ctx} title={t('tfCodesTitle')} nav={props.signedIn ? 'account' : undefined}>
      <section class="card" aria-labelledby="codes-title">
        <h1 id="codes-title">{t('tfCodesTitle')}</h1>
        <p class="alert ok" role="status">
          {t('tfCodesOnce')}
        </p>
        <ul class="codes mono" data-recovery-codes="true">
          {props.codes.map((code) => (
            <li>{code}</li>
          ))}
        </ul>
        <div class="actions">
          <a class="btn" href={props.next}>
            {t('tfContinue')}
          </a>
        </div>
      </section>
    </DashLayout>
  )
}
