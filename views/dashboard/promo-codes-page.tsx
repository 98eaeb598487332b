import type { PromoCode } from '../../db/schema.js'
import { formatAmount, formatDateTime } from '../../src/i18n/index.js'
import { Check, Field } from '../field.js'
import { CsrfField, type DashContext, DashLayout } from './layout.js'
import { Pager } from './links-page.js'
import { Notice } from './parts.js'

/** The promo code form as posted: every field as text, and the kind of discount chosen. */
export type PromoCodeFormValues = {
  code: string
  kind: 'percent' | 'amount'
  percent_off: string
  amount_off: string
  min_amount: string
  max_redemptions: string
  expires_at: string
}

type Errors = Partial<Record<string, string>>

/** A code's discount as the list says it: `10 %` or `500,00 DA`. */
function offText(ctx: DashContext, code: PromoCode): string {
  return code.percentOff !== null
    ? `${code.percentOff}\u00a0%`
    : formatAmount(code.amountOff ?? 0, ctx.lang)
}

/** A code's state: off, expired, or active. */
function stateOf(code: PromoCode, now: number) {
  if (!code.active) return { key: 'pcInactiveBadge', cls: 'badge inactive' } as const
  if (code.expiresAt !== null && code.expiresAt <= now)
    return { key: 'pcExpiredBadge', cls: 'badge inactive' } as const
  return { key: 'pcActiveBadge', cls: 'badge active' } as const
}

/** The promo codes: code, discount, minimum, uses of the limit, expiry and state; a page at a time. */
export function PromoCodesPage(props: {
  ctx: DashContext
  codes: PromoCode[]
  now: number
  nextHref: string | null
  firstHref: string | null
  notice?: string | undefined
}) {
  const { ctx, codes } = props
  const t = ctx.t
  return (
    <DashLayout ctx={ctx} title={t('pcTitle')} nav="promo-codes">
      <section class="card" aria-labelledby="promo-title">
        <div class="head">
          <h1 id="promo-title">{t('pcTitle')}</h1>
          <a class="btn small" href="/dashboard/promo-codes/new">
            {t('pcNew')}
          </a>
        </div>
        <Notice text={props.notice} />
        {codes.length === 0 ? (
          <p class="muted">{t('pcNoneYet')}</p>
        ) : (
          <div class="table-wrap">
            <table class="stack">
              <thead>
                <tr>
                  <th scope="col">{t('pcColCode')}</th>
                  <th scope="col" class="num">
                    {t('pcColOff')}
                  </th>
                  <th scope="col" class="num">
                    {t('pcColMin')}
                  </th>
                  <th scope="col" class="num">
                    {t('pcColUsed')}
                  </th>
                  <th scope="col">{t('pcColExpiry')}</th>
                  <th scope="col">{t('pcColStatus')}</th>
                </tr>
              </thead>
              <tbody>
                {codes.map((code) => {
                  const state = stateOf(code, props.now)
                  return (
                    <tr data-promo-code-id={code.id}>
                      <td data-label={t('pcColCode')}>
                        <a href={`/dashboard/promo-codes/${encodeURIComponent(code.id)}`}>
                          <bdi class="ltr" dir="ltr">
                            {code.code}
                          </bdi>
                        </a>
                      </td>
                      <td class="num" data-label={t('pcColOff')}>
                        <bdi>{offText(ctx, code)}</bdi>
                      </td>
                      <td class="num" data-label={t('pcColMin')}>
                        {code.minAmount === null ? (
                          t('none')
                        ) : (
                          <bdi>{formatAmount(code.minAmount, ctx.lang)}</bdi>
                        )}
                      </td>
                      <td class="num" data-label={t('pcColUsed')}>
                        {t('pcUsedOf', {
                          used: code.redeemedCount,
                          limit: code.maxRedemptions ?? t('pcNoLimit'),
                        })}
                        {code.heldCount > 0 ? (
                          <>
                            <br />
                            <span class="muted">{t('pcHeld', { held: code.heldCount })}</span>
                          </>
                        ) : null}
                      </td>
                      <td data-label={t('pcColExpiry')}>
                        {code.expiresAt === null
                          ? t('pcNever')
                          : formatDateTime(code.expiresAt, ctx.lang)}
                      </td>
                      <td data-label={t('pcColStatus')}>
                        <span class={state.cls}>{t(state.key)}</span>
                      </td>
                    </tr>
                  )
                })}
              </tbody>
            </table>
          </div>
        )}
        <Pager ctx={ctx} nextHref={props.nextHref} firstHref={props.firstHref} />
      </section>
    </DashLayout>
  )
}

/**
 * A code's page, or a new code's form: the code, its kind of discount and value, the least order,
 * the number of uses and the expiry, errors beside their fields; for a stored code, switching it
 * off and on.
 */
export function PromoCodeFormPage(props: {
  ctx: DashContext
  form: PromoCodeFormValues
  errors: Errors
  code?: PromoCode | undefined
  notice?: string | undefined
}) {
  const { ctx, form, errors, code } = props
  const t = ctx.t
  const title = code ? t('pcEditTitle') : t('pcNew')
  const action = code ? `/dashboard/promo-codes/${code.id}` : '/dashboard/promo-codes'
  const ltr = { class: 'ltr', dir: 'ltr' }
  return (
    <DashLayout ctx={ctx} title={title} nav="promo-codes">
      <section class="card" aria-labelledby="form-title">
        <h1 id="form-title">{title}</h1>
        <Notice text={props.notice} />
        {Object.keys(errors).length > 0 ? (
          <p class="alert" role="alert">
            {t('fixErrors')}
          </p>
        ) : null}
        <form method="post" action={action} novalidate>
          <CsrfField ctx={ctx} />
          <Field
            id="code"
            label={t('pcFieldCode')}
            type="text"
            attrs={{
              name: 'code',
              value: form.code,
              ...ltr,
              maxlength: 40,
              autocomplete: 'off',
              required: true,
            }}
            hint={t('pcCodeHint')}
            error={errors.code}
          />
          <fieldset>
            <legend>{t('pcFieldKind')}</legend>
            <Check
              type="radio"
              attrs={{ name: 'kind', value: 'percent', checked: form.kind === 'percent' }}
            >
              <span>{t('pcKindPercent')}</span>
            </Check>
            <Check
              type="radio"
              attrs={{ name: 'kind', value: 'amount', checked: form.kind === 'amount' }}
            >
              <span>{t('pcKindAmount')}</span>
            </Check>
          </fieldset>
          <div class="grid">
            <Field
              id="percent_off"
              label={t('pcFieldPercent')}
              type="text"
              attrs={{ name: 'percent_off', value: form.percent_off, inputmode: 'numeric', ...ltr }}
              hint={t('pcPercentHint')}
              error={errors.percent_off}
              wrap
            />
            <Field
              id="amount_off"
              label={t('pcFieldAmount')}
              type="text"
              attrs={{ name: 'amount_off', value: form.amount_off, inputmode: 'decimal', ...ltr }}
              error={errors.amount_off}
              wrap
            />
            <Field
              id="min_amount"
              label={t('pcFieldMin')}
              type="text"
              attrs={{ name: 'min_amount', value: form.min_amount, inputmode: 'decimal', ...ltr }}
              hint={t('pcMinHint')}
              error={errors.min_amount}
              wrap
            />
            <Field
              id="max_redemptions"
              label={t('pcFieldMax')}
              type="text"
              attrs={{
                name: 'max_redemptions',
                value: form.max_redemptions,
                inputmode: 'numeric',
                ...ltr,
              }}
              hint={t('pcMaxHint')}
              error={errors.max_redemptions}
              wrap
            />
          </div>
          <Field
            id="expires_at"
            label={t('pcFieldExpires')}
            type="datetime-local"
            attrs={{ name: 'expires_at', value: form.expires_at }}
            hint={t('pcExpiresHint')}
            error={errors.expires_at}
          />
          <div class="actions">
            <button type="submit">{code ? t('pcSave') : t('pcCreate')}</button>
            <a class="btn secondary" href="/dashboard/promo-codes">
              {t('pcBack')}
            </a>
          </div>
        </form>
      </section>
      {code ? (
        <section class="card" aria-labelledby="use-title">
          <h2 id="use-title">{t('pcStateTitle')}</h2>
          <p>
            <span class={code.active ? 'badge active' : 'badge inactive'}>
              {t(code.active ? 'pcActiveBadge' : 'pcInactiveBadge')}
            </span>{' '}
            {t('pcUsedOf', {
              used: code.redeemedCount,
              limit: code.maxRedemptions ?? t('pcNoLimit'),
            })}
          </p>
          <form
            class="inline"
            method="post"
            action={`${action}/${code.active ? 'deactivate' : 'activate'}`}
          >
            <CsrfField ctx={ctx} />
            <button type="submit" class="small secondary">
              {t(code.active ? 'pcDeactivate' : 'pcActivate')}
            </button>
          </form>
        </section>
      ) : null}
    </DashLayout>
  )
}
