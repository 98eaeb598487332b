import { CHECKOUT_STATUSES, type Checkout, type CheckoutStatus } from '../../db/schema.js'
import { formatAmount, formatDateTime } from '../../src/i18n/index.js'
import { Field } from '../field.js'
import { CsrfField, type DashContext, DashLayout } from './layout.js'
import { Pager } from './links-page.js'
import { Cell, Notice, StackTable } from './parts.js'

/** A checkout's state as a coloured label (paid reads as a paid payment does). */
export function CheckoutStatusBadge(props: { ctx: DashContext; status: CheckoutStatus }) {
  const look = props.status === 'completed' ? 'paid' : props.status
  return (
    <span class={`badge ${look}`} data-status={props.status}>
      {props.ctx.t(`chkStatus_${props.status}`)}
    </span>
  )
}

/**
 * The shop's checkouts, newest first: reference, amount, state, creation and expiry, the payment
 * of a paid one; a status filter and a reference search; an open one may be canceled from its row.
 */
export function CheckoutsPage(props: {
  ctx: DashContext
  checkouts: Checkout[]
  /** The filter as asked: `status` is null when it is not a checkout state. */
  filters: { status: CheckoutStatus | '' | null; reference: string }
  nextHref: string | null
  firstHref: string | null
  /** Whether the viewer may cancel (links.write). */
  canCancel: boolean
  notice?: { text: string; kind?: 'ok' | 'error' } | undefined
}) {
  const { ctx, filters } = props
  const t = ctx.t
  const filtered = filters.status !== '' || filters.reference !== ''
  return (
    <DashLayout ctx={ctx} title={t('checkoutsTitle')} nav="checkouts">
      <section class="card" aria-labelledby="checkouts-title">
        <div class="head">
          <h1 id="checkouts-title">{t('checkoutsTitle')}</h1>
        </div>
        <p class="muted">{t('checkoutsIntro')}</p>
        <Notice text={props.notice?.text} kind={props.notice?.kind} />
        <form class="filters" method="get" action="/dashboard/checkouts">
          <Field
            id="f-reference"
            label={t('checkoutsReference')}
            attrs={{
              name: 'reference',
              type: 'search',
              value: filters.reference,
              maxlength: 100,
              dir: 'auto',
            }}
            wrap
          />
          <Field
            id="f-status"
            label={t('checkoutsStatus')}
            as="select"
            attrs={{ name: 'status' }}
            wrap
          >
            <option value="">{t('checkoutsStatusAll')}</option>
            {CHECKOUT_STATUSES.map((s) => (
              <option value={s} selected={filters.status === s}>
                {t(`chkStatus_${s}`)}
              </option>
            ))}
          </Field>
          <button type="submit" class="small">
            {t('searchButton')}
          </button>
          {filtered ? <a href="/dashboard/checkouts">{t('searchClear')}</a> : null}
        </form>
        {filters.status === null ? (
          <p class="alert" role="alert">
            {t('badFilter', { field: 'status' })}
          </p>
        ) : props.checkouts.length === 0 ? (
          <p class="muted">{t(filtered ? 'checkoutsNoneFound' : 'checkoutsNone')}</p>
        ) : (
          <CheckoutsTable ctx={ctx} checkouts={props.checkouts} canCancel={props.canCancel} />
        )}
        <Pager ctx={ctx} nextHref={props.nextHref} firstHref={props.firstHref} />
      </section>
    </DashLayout>
  )
}

function CheckoutsTable(props: { ctx: DashContext; checkouts: Checkout[]; canCancel: boolean }) {
  const { ctx } = props
  const t = ctx.t
  const columns = [
    { label: t('checkoutsReference') },
    { label: t('colAmount'), num: true },
    { label: t('colStatus') },
    { label: t('colCreated') },
    { label: t('colExpires') },
    { label: t('colPayment') },
    ...(props.canCancel ? [{ label: t('colCheckoutActions') }] : []),
  ]
  return (
    <StackTable columns={columns}>
      {props.checkouts.map((k) => (
        <tr data-checkout-id={k.id}>
          <Cell label={t('checkoutsReference')}>
            {k.reference ? <bdi>{k.reference}</bdi> : <span class="muted ltr">{k.id}</span>}
          </Cell>
          <Cell label={t('colAmount')} num>
            {formatAmount(k.amount, ctx.lang)}
          </Cell>
          <Cell label={t('colStatus')}>
            <CheckoutStatusBadge ctx={ctx} status={k.status} />
          </Cell>
          <Cell label={t('colCreated')} class="nowrap">
            {formatDateTime(k.createdAt, ctx.lang)}
          </Cell>
          <Cell label={t('colExpires')} class="nowrap">
            {formatDateTime(k.expiresAt, ctx.lang)}
          </Cell>
          <Cell label={t('colPayment')}>
            {k.paymentId ? (
              <a href={`/dashboard/payments/${encodeURIComponent(k.paymentId)}`}>
                {formatDateTime(k.completedAt ?? k.updatedAt, ctx.lang)}
              </a>
            ) : (
              <span class="muted">—</span>
            )}
          </Cell>
          {props.canCancel ? (
            // On a phone the button names itself: no heading above it, none over an empty cell.
            <Cell label="" class="nowrap">
              {k.status === 'open' ? (
                <form
                  class="inline"
                  method="post"
                  action={`/dashboard/checkouts/${encodeURIComponent(k.id)}/cancel`}
                >
                  <CsrfField ctx={ctx} />
                  <button
                    type="submit"
                    class="small secondary"
                    aria-label={t('checkoutCancelLabel', { ref: k.reference ?? k.id })}
                  >
                    {t('checkoutCancel')}
                  </button>
                </form>
              ) : null}
            </Cell>
          ) : null}
        </tr>
      ))}
    </StackTable>
  )
}
