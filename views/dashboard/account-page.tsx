import type { User } from '../../db/schema.js'
import { Field } from '../field.js'
import { CsrfField, type DashContext, DashLayout } from './layout.js'
import { NewPasswordField, Notice } from './parts.js'
import { PostButton } from './webhook-parts.js'

/**
 * The signed-in person's own account: password, two-factor sign-in, recovery codes, signing
 * out everywhere. With the admin token there is no account: only signing its sessions out.
 */
export function AccountPage(props: {
  ctx: DashContext
  user: User | null
  notice?: string | undefined
  errors?: { current?: string; password?: string; code?: string; confirm?: string } | undefined
}) {
  const { ctx, user } = props
  const t = ctx.t
  const errors = props.errors ?? {}
  return (
    <DashLayout ctx={ctx} title={t('accTitle')} nav="account">
      <section class="card" aria-labelledby="acc-title">
        <h1 id="acc-title">{t('accTitle')}</h1>
        <Notice text={props.notice} />
        {user ? (
          <p>
            <bdi>{user.name}</bdi> · <bdi class="mono">{user.email}</bdi> · {t(`role_${user.role}`)}
          </p>
        ) : (
          <p>{t('accAdmin')}</p>
        )}
      </section>
      {user ? (
        <>
          <section class="card" aria-labelledby="acc-password">
            <h2 id="acc-password">{t('accPassword')}</h2>
            <form method="post" action="/dashboard/account/password" novalidate>
              <CsrfField ctx={ctx} />
              <Field
                id="current"
                label={t('accCurrent')}
                type="password"
                attrs={{
                  name: 'current',
                  class: 'ltr',
                  autocomplete: 'current-password',
                  maxlength: 1024,
                  required: true,
                }}
                error={errors.current}
              />
              <NewPasswordField ctx={ctx} label={t('accNew')} error={errors.password} />
              <div class="actions">
                <button type="submit">{t('accChangePassword')}</button>
              </div>
            </form>
          </section>
          <section class="card" aria-labelledby="acc-tf">
            <h2 id="acc-tf">{t('accTwoFactor')}</h2>
            {user.totpEnabledAt !== null ? (
              <>
                <p data-two-factor="on">{t('accTwoFactorOn')}</p>
                <form method="post" action="/dashboard/account/two-factor/disable" novalidate>
                  <CsrfField ctx={ctx} />
                  <Field
                    id="code"
                    label={t('tfCode')}
                    type="text"
                    attrs={{
                      name: 'code',
                      class: 'ltr',
                      autocomplete: 'one-time-code',
                      maxlength: 32,
                      required: true,
                    }}
                    error={errors.code}
                  />
                  <div class="actions">
                    <button type="submit" class="danger">
                      {t('accTwoFactorDisable')}
                    </button>
                  </div>
                </form>
                <p>{t('accCodesText', { n: (user.recoveryCodes ?? []).filter(Boolean).length })}</p>
                <form method="post" action="/dashboard/account/recovery-codes" novalidate>
                  <CsrfField ctx={ctx} />
                  <Field
                    id="confirm"
                    label={t('accCodesConfirm')}
                    type="password"
                    attrs={{
                      name: 'confirm',
                      class: 'ltr',
                      autocomplete: 'off',
                      maxlength: 1024,
                      required: true,
                    }}
                    error={errors.confirm}
                  />
                  <div class="actions">
                    <button type="submit" class="small secondary">
                      {t('accCodesNew')}
                    </button>
                  </div>
                </form>
              </>
            ) : (
              <>
                <p data-two-factor="off">{t('accTwoFactorOff')}</p>
                <a class="btn small" href="/dashboard/account/two-factor">
                  {t('accTwoFactorSetUp')}
                </a>
              </>
            )}
          </section>
        </>
      ) : null}
      <section class="card" aria-labelledby="acc-out">
        <h2 id="acc-out">{t('accLogoutEverywhere')}</h2>
        <p>{user ? t('accLogoutText') : t('accLogoutAdminText')}</p>
        <PostButton
          ctx={ctx}
          action="/dashboard/account/logout-everywhere"
          label={t('accLogoutEverywhere')}
          kind="danger"
        />
      </section>
    </DashLayout>
  )
}
