/**
 * The shift report: a day's till sales, counted and summed per outcome and per cashier, with a
 * stylesheet that prints it on one page without the navigation.
 */

import type { DashKey } from '../../src/dashboard/messages.js'
import {
  REPORT_OUTCOMES,
  type ReportOutcome,
  type TillSummary,
} from '../../src/dashboard/till-report.js'
import { countForm, formatAmount } from '../../src/i18n/index.js'
import { Field } from '../field.js'
import { type DashContext, DashLayout } from './layout.js'
import { Cell, Notice, StackTable } from './parts.js'

const OUTCOME_KEYS: Record<ReportOutcome, DashKey> = {
  paid: 'tillOutcomePaid',
  declined: 'tillOutcomeDeclined',
  canceled: 'tillOutcomeCanceled',
  expired: 'tillOutcomeExpired',
  open: 'tillOutcomeOpen',
}

export function TillReportPage(props: {
  ctx: DashContext
  day: string
  summary: TillSummary | null
  error: string | undefined
  /** What the report calls the maker of a sale (`links.created_by`): a person's name, say. */
  nameOf: (cashier: string) => string
}) {
  const { ctx, summary } = props
  const t = ctx.t
  const money = (c: number) => formatAmount(c, ctx.lang)
  const form = (n: number) => countForm(n, ctx.lang)
  return (
    <DashLayout ctx={ctx} title={t('tillReportTitle')} nav="till">
      <h1>{t('tillReportTitle')}</h1>
      <Notice text={props.error} kind="error" />
      <form method="get" action="/dashboard/till/report" class="report-tools">
        <Field
          id="day"
          label={t('tillReportDay')}
          attrs={{ name: 'day', type: 'date', value: props.day }}
          wrap
        />
        <button type="submit" class="small">
          {t('tillReportShow')}
        </button>
        <a class="no-print" href="/dashboard/till">
          {t('tillBackToTill')}
        </a>
      </form>
      {summary ? (
        <>
          <p data-total-count={summary.total.count}>
            {t('tillReportSummary', {
              day: props.day,
              sales: t(`tillReportSales${form(summary.total.count)}`, { n: summary.total.count }),
              paid: t(`tillReportPaid${form(summary.byOutcome.paid.count)}`, {
                n: summary.byOutcome.paid.count,
              }),
              sum: money(summary.byOutcome.paid.sum),
            })}
          </p>
          <h2>{t('tillReportByOutcome')}</h2>
          <StackTable
            columns={[
              { label: t('tillReportOutcome') },
              { label: t('tillReportCount'), num: true },
              { label: t('tillReportSum'), num: true },
            ]}
          >
            {REPORT_OUTCOMES.map((o) => (
              <tr data-outcome={o}>
                <Cell label={t('tillReportOutcome')}>{t(OUTCOME_KEYS[o])}</Cell>
                <Cell label={t('tillReportCount')} num>
                  {summary.byOutcome[o].count}
                </Cell>
                <Cell label={t('tillReportSum')} num data-sum={String(summary.byOutcome[o].sum)}>
                  {money(summary.byOutcome[o].sum)}
                </Cell>
              </tr>
            ))}
          </StackTable>
          <h2>{t('tillReportByCashier')}</h2>
          {summary.byCashier.length === 0 ? (
            <p>{t('tillReportNone')}</p>
          ) : (
            <StackTable
              columns={[
                { label: t('tillReportCashier') },
                { label: t('tillReportSales'), num: true },
                { label: t('tillOutcomePaid'), num: true },
                { label: t('tillReportPaidSum'), num: true },
                { label: t('tillOutcomeDeclined'), num: true },
                { label: t('tillOutcomeCanceled'), num: true },
                { label: t('tillOutcomeExpired'), num: true },
                { label: t('tillOutcomeOpen'), num: true },
              ]}
            >
              {summary.byCashier.map((row) => (
                <tr data-cashier={row.cashier}>
                  <Cell label={t('tillReportCashier')}>
                    <bdi>{props.nameOf(row.cashier)}</bdi>
                  </Cell>
                  <Cell label={t('tillReportSales')} num>
                    {row.total.count}
                  </Cell>
                  <Cell label={t('tillOutcomePaid')} num>
                    {row.paid.count}
                  </Cell>
                  <Cell label={t('tillReportPaidSum')} num data-sum={String(row.paid.sum)}>
                    {money(row.paid.sum)}
                  </Cell>
                  <Cell label={t('tillOutcomeDeclined')} num>
                    {row.declined.count}
                  </Cell>
                  <Cell label={t('tillOutcomeCanceled')} num>
                    {row.canceled.count}
                  </Cell>
                  <Cell label={t('tillOutcomeExpired')} num>
                    {row.expired.count}
                  </Cell>
                  <Cell label={t('tillOutcomeOpen')} num>
                    {row.open.count}
                  </Cell>
                </tr>
              ))}
            </StackTable>
          )}
          <p class="no-print">
            <a href={`/dashboard/payments.csv?source=till`}>{t('tillReportCsv')}</a>
          </p>
        </>
      ) : null}
    </DashLayout>
  )
}
