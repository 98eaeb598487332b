import { PAYMENT_STATUSES, type Payment } from '../../db/schema.js'
import type { FilterValues } from '../../src/dashboard/payment-filters.js'
import type { LinkWithStats } from '../../src/data/links.js'
import type { SearchProblem } from '../../src/data/search.js'
import type { LinkStatus } from '../../src/domain/link-status.js'
import { formatAmount, formatDateTime } from '../../src/i18n/index.js'
import { Field } from '../field.js'
import { type DashContext, DashLayout } from './layout.js'
import { Pager } from './links-page.js'
import {
  BeyondMaxPaymentsMark,
  DateRangeAndApply,
  PaymentStatusBadge,
  paymentStatusLabel,
} from './parts.js'
import { FailureReason } from './payment-detail-page.js'
import { LinkMatches, SearchField, searchProblemText } from './search-parts.js'

/**
 * The payments list: a search box and filters (status, link, Algiers dates), the links a search
 * matches, a page of payments, the CSV export.
 */
export function PaymentsPage(props: {
  ctx: DashContext
  payments: Payment[]
  /** Link titles by id, for the rows and the link filter. */
  links: { id: string; title: string }[]
  values: FilterValues
  invalid: string[]
  csvHref: string
  nextHref: string | null
  firstHref: string | null
  /** On the first page of a search: the links whose title matches. */
  linkMatches?:
    | { links: (LinkWithStats & { status: LinkStatus })[]; moreHref: string | null }
    | undefined
  searchProblem?: SearchProblem | undefined
}) {
  const { ctx, values } = props
  const t = ctx.t
  const titles = new Map(props.links.map((l) => [l.id, l.title]))
  return (
    <DashLayout ctx={ctx} title={t('paymentsTitle')} nav="payments">
      <section class="card" aria-labelledby="payments-title">
        <div class="head">
          <h1 id="payments-title">{t('paymentsTitle')}</h1>
          <a class="btn small secondary" href={props.csvHref}>
            {t('exportCsv')}
          </a>
        </div>
        <form class="filters" method="get" action="/dashboard/payments">
          <SearchField ctx={ctx} value={values.q} placeholder={t('searchPlaceholder')} />
          <Field
            id="f-status"
            label={t('filterStatus')}
            as="select"
            attrs={{ name: 'status' }}
            wrap
          >
            <option value="">{t('anyStatus')}</option>
            {PAYMENT_STATUSES.map((s) => (
              <option value={s} selected={values.status === s}>
                {paymentStatusLabel(ctx, s)}
              </option>
            ))}
          </Field>
          <Field id="f-link" label={t('filterLink')} as="select" attrs={{ name: 'link' }} wrap>
            <option value="">{t('anyLink')}</option>
            {props.links.map((l) => (
              <option value={l.id} selected={values.link === l.id}>
                {l.title}
              </option>
            ))}
          </Field>
          <DateRangeAndApply ctx={ctx} from={values.from} to={values.to} />
        </form>
        {props.linkMatches ? <LinkMatches ctx={ctx} {...props.linkMatches} /> : null}
        {props.invalid.length > 0 ? (
          <p class="alert" role="alert">
            {props.searchProblem && props.invalid.length === 1
              ? searchProblemText(ctx, props.searchProblem)
              : t('badFilter', { field: props.invalid.join(', ') })}
          </p>
        ) : props.payments.length === 0 ? (
          <p class="muted">{t('noPayments')}</p>
        ) : (
          <div class="table-wrap">
            <table class="stack">
              <thead>
                <tr>
                  <th scope="col">{t('colCreated')}</th>
                  <th scope="col">{t('filterLink')}</th>
                  <th scope="col">{t('colCustomer')}</th>
                  <th scope="col" class="num">
                    {t('colAmount')}
                  </th>
                  <th scope="col">{t('colStatus')}</th>
                  <th scope="col">{t('colOrder')}</th>
                  <th scope="col">{t('colRef')}</th>
                  <th scope="col">{t('details')}</th>
                </tr>
              </thead>
              <tbody>
                {props.payments.map((p) => (
                  <tr data-payment-id={p.id}>
                    <td class="nowrap" data-label={t('colCreated')}>
                      {formatDateTime(p.createdAt, ctx.lang)}
                    </td>
                    <td class="wide" data-label={t('filterLink')}>
                      <a dir="auto" href={`/dashboard/links/${p.linkId}`}>
                        {titles.get(p.linkId) ?? p.linkId}
                      </a>
                    </td>
                    <td class="wide" data-label={t('colCustomer')}>
                      <bdi>{p.customerName}</bdi>
                      <br />
                      <span class="muted ltr">{p.customerPhone}</span>
                      <br />
                      <span class="muted ltr">{p.customerEmail}</span>
                    </td>
                    <td class="num" data-label={t('colAmount')}>
                      {formatAmount(p.amount, ctx.lang)}
                    </td>
                    <td data-label={t('colStatus')}>
                      <PaymentStatusBadge ctx={ctx} status={p.status} />{' '}
                      <BeyondMaxPaymentsMark ctx={ctx} beyond={p.beyondMaxPayments} />
                      <FailureReason ctx={ctx} code={p.failureCode} />
                    </td>
                    <td class="ltr" data-label={t('colOrder')}>
                      {p.orderNumber ?? t('none')}
                    </td>
                    <td data-label={t('colRef')}>
                      <bdi>{p.ref ?? t('none')}</bdi>
                    </td>
                    <td>
                      <a href={`/dashboard/payments/${encodeURIComponent(p.id)}`}>
                        {t('openPayment')}
                      </a>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        <Pager ctx={ctx} nextHref={props.nextHref} firstHref={props.firstHref} />
      </section>
    </DashLayout>
  )
}
