/** The overview's 30 days: the two charts, and their numbers as a table for every reader. */
import { lastDays, type Overview, type OverviewDay } from '../../src/data/overview.js'
import { formatAmount } from '../../src/i18n/index.js'
import type { DashContext } from './layout.js'
import { CollectedChart, OutcomesChart, OutcomesLegend } from './overview-chart.js'
import { dayDate, formatCount, shortDate } from './overview-format.js'

/** The charts of the last 30 days with their summaries, and the table behind them. */
export function Days(props: { ctx: DashContext; overview: Overview }) {
  const { ctx, overview: o } = props
  const t = ctx.t
  const lang = ctx.lang
  const first = shortDate(o.days[0]!.date, lang)
  const last = shortDate(o.days.at(-1)!.date, lang)
  const month = lastDays(o, o.days.length)
  const best = o.days.reduce((a, b) => (b.collected > a.collected ? b : a))
  const sum = (k: 'paid' | 'failed' | 'other') =>
    formatCount(
      o.days.reduce((s, d) => s + d.outcomes[k], 0),
      lang,
    )
  const collectedSummary =
    month.collected > 0
      ? t('ovCollectedSummary', {
          first,
          last,
          total: formatAmount(month.collected, lang),
          best: shortDate(best.date, lang),
          amount: formatAmount(best.collected, lang),
        })
      : t('ovCollectedNone', { first, last })
  const outcomesSummary = t('ovOutcomesSummary', {
    first,
    last,
    paid: sum('paid'),
    failed: sum('failed'),
    other: sum('other'),
  })
  return (
    <section class="card" aria-labelledby="ov-days">
      <h2 id="ov-days">{t('ovDaysTitle')}</h2>
      <div class="ov-charts">
        <figure>
          <figcaption>{t('ovChartCollected')}</figcaption>
          <CollectedChart ctx={ctx} days={o.days} summary={collectedSummary} />
        </figure>
        <figure>
          <figcaption>{t('ovChartOutcomes')}</figcaption>
          <OutcomesChart ctx={ctx} days={o.days} summary={outcomesSummary} />
          <OutcomesLegend ctx={ctx} />
          <p class="muted hint">{t('ovOtherHint')}</p>
        </figure>
      </div>
      <details class="ov-numbers">
        <summary>{t('ovNumbers')}</summary>
        <DaysTable ctx={ctx} days={o.days} />
      </details>
    </section>
  )
}

/** The charts' numbers as a table, newest day first; each day links to its payments. */
function DaysTable(props: { ctx: DashContext; days: OverviewDay[] }) {
  const { ctx } = props
  const t = ctx.t
  return (
    <table class="ov-table">
      <thead>
        <tr>
          <th scope="col">{t('ovColDay')}</th>
          <th scope="col" class="num">
            {t('colCollected')}
          </th>
          <th scope="col" class="num">
            {t('ovPaid')}
          </th>
          <th scope="col" class="num">
            {t('ovFailed')}
          </th>
          <th scope="col" class="num">
            {t('ovOther')}
          </th>
        </tr>
      </thead>
      <tbody>
        {[...props.days].reverse().map((day) => (
          <tr data-date={day.date}>
            <th scope="row">
              <a
                href={`/dashboard/payments?from=${day.date}&to=${day.date}`}
                aria-label={t('ovDayPayments', { day: dayDate(day.date, ctx.lang) })}
              >
                {shortDate(day.date, ctx.lang)}
              </a>
            </th>
            <td class="num" data-value={day.collected}>
              {formatAmount(day.collected, ctx.lang)}
            </td>
            <td class="num">{formatCount(day.outcomes.paid, ctx.lang)}</td>
            <td class="num">{formatCount(day.outcomes.failed, ctx.lang)}</td>
            <td class="num">{formatCount(day.outcomes.other, ctx.lang)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  )
}
