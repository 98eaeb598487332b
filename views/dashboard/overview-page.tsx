import type { DashKey } from '../../src/dashboard/messages.js'
import { lastDays, type Overview, type OverviewDay } from '../../src/data/overview.js'
import { formatAmount } from '../../src/i18n/index.js'
import { failureLabel } from './failure-label.js'
import { type DashContext, DashLayout } from './layout.js'
import { Days } from './overview-days.js'
import { formatCount, formatPercent } from './overview-format.js'

/** Whether nothing happened in the window and nothing is in flight: the page then says what to do. */
export function isEmptyOverview(o: Overview): boolean {
  const quiet = (d: OverviewDay) =>
    d.paidCount === 0 && d.outcomes.paid + d.outcomes.failed + d.outcomes.other === 0
  return o.days.every(quiet) && o.pending === 0 && o.initiated === 0
}

/** The dashboard's first page: what was collected, how payments ended, where money came from. */
export function OverviewPage(props: {
  ctx: DashContext
  overview: Overview
  /** Why e-mail receipts are not sent, when they are not. */
  mailNotice?: string | undefined
}) {
  const { ctx, overview: o } = props
  const t = ctx.t
  const empty = isEmptyOverview(o)
  return (
    <DashLayout ctx={ctx} title={t('ovTitle')} nav="overview">
      <section class="card" aria-labelledby="ov-title">
        <h1 id="ov-title">{t('ovTitle')}</h1>
        {empty ? <EmptyState ctx={ctx} /> : <Figures ctx={ctx} overview={o} />}
        {props.mailNotice ? (
          <p class="muted" id="mail-off">
            {props.mailNotice}
          </p>
        ) : null}
      </section>
      {empty ? null : <Days ctx={ctx} overview={o} />}
      {empty ? null : (
        <div class="ov-two">
          <Reasons ctx={ctx} overview={o} />
          <TopLinks ctx={ctx} overview={o} />
        </div>
      )}
    </DashLayout>
  )
}

function EmptyState(props: { ctx: DashContext }) {
  const t = props.ctx.t
  return (
    <div class="ov-empty" data-empty="overview">
      <h2>{t('ovEmptyTitle')}</h2>
      <p>{t('ovEmptyText')}</p>
      <a class="btn" href="/dashboard/links/new">
        {t('ovEmptyAction')}
      </a>
    </div>
  )
}

function Figures(props: { ctx: DashContext; overview: Overview }) {
  const { ctx, overview: o } = props
  const t = ctx.t
  const money = (key: DashKey, days: number, id: string) => {
    const sum = lastDays(o, days)
    return (
      <li data-figure={id}>
        <span class="label">{t(key)}</span>
        <strong class="big">{formatAmount(sum.collected, ctx.lang)}</strong>
        <span class="muted">{t('ovPaidCount', { count: formatCount(sum.paid, ctx.lang) })}</span>
      </li>
    )
  }
  return (
    <>
      <ul class="ov-figures">
        {money('ovToday', 1, 'today')}
        {money('ovWeek', 7, 'week')}
        {money('ovMonth', 30, 'month')}
        <li data-figure="failure-rate">
          <span class="label">{t('ovFailureRate')}</span>
          <strong class="big">
            {o.settled > 0 ? formatPercent(o.unsuccessful / o.settled, ctx.lang) : t('none')}
          </strong>
          <span class="muted">
            {o.settled > 0
              ? t('ovFailureDetail', {
                  unsuccessful: formatCount(o.unsuccessful, ctx.lang),
                  settled: formatCount(o.settled, ctx.lang),
                })
              : t('ovNoSettled')}
          </span>
        </li>
        <li data-figure="pending">
          <span class="label">{t('ovPending')}</span>
          <strong class="big">{formatCount(o.pending, ctx.lang)}</strong>
          <a href="/dashboard/payments?status=pending">{t('ovSeePending')}</a>
          {o.initiated > 0 ? (
            <a href="/dashboard/payments?status=initiated">
              {t('ovInitiated', { count: formatCount(o.initiated, ctx.lang) })}
            </a>
          ) : null}
        </li>
      </ul>
      <p class="muted hint">{t('ovTimes')}</p>
    </>
  )
}

function Reasons(props: { ctx: DashContext; overview: Overview }) {
  const { ctx, overview: o } = props
  const t = ctx.t
  return (
    <section class="card" aria-labelledby="ov-reasons">
      <h2 id="ov-reasons">{t('ovReasons')}</h2>
      {o.reasons.length === 0 ? (
        <p class="muted">{t('ovNoReasons')}</p>
      ) : (
        <ol class="ov-list">
          {o.reasons.map((r) => (
            <li data-reason={r.code ?? 'none'}>
              <span>{r.code ? failureLabel(ctx, r.code) : t('ovReasonNone')}</span>
              <span class="num">{formatCount(r.count, ctx.lang)}</span>
            </li>
          ))}
        </ol>
      )}
    </section>
  )
}

function TopLinks(props: { ctx: DashContext; overview: Overview }) {
  const { ctx, overview: o } = props
  const t = ctx.t
  return (
    <section class="card" aria-labelledby="ov-top">
      <h2 id="ov-top">{t('ovTopLinks')}</h2>
      {o.topLinks.length === 0 ? (
        <p class="muted">{t('ovNoTopLinks')}</p>
      ) : (
        <ol class="ov-list">
          {o.topLinks.map((link) => (
            <li data-link-id={link.id}>
              <span>
                <a href={`/dashboard/links/${link.id}`}>{link.title}</a>
                <span class="muted sub">
                  {t('ovPaidCount', { count: formatCount(link.paidCount, ctx.lang) })}
                </span>
              </span>
              <span class="num">{formatAmount(link.collected, ctx.lang)}</span>
            </li>
          ))}
        </ol>
      )}
    </section>
  )
}
