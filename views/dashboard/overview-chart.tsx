/**
 * The overview's two bar charts, drawn on the server as SVG: money collected per day, and payments
 * per day by outcome (paid, failed, other) stacked. No script, no request elsewhere, no style
 * attribute (the CSP allows only the page's nonce'd stylesheet): colours and text sizes come from
 * classes. The viewBox lets a chart shrink to a phone's width; in Arabic the days run from right
 * to left. Each chart is one image for assistive technology, summarised by its <title>; the
 * numbers themselves are in the table beside it.
 */
import type { Child } from 'hono/jsx'
import type { OverviewDay } from '../../src/data/overview.js'
import { formatAmount } from '../../src/i18n/index.js'
import type { DashContext } from './layout.js'
import { formatCount, shortDate } from './overview-format.js'

const W = 600
const H = 240
const PAD = { top: 34, bottom: 30, side: 6 }
const PLOT_H = H - PAD.top - PAD.bottom
const BASE = H - PAD.bottom

/** The smallest of 1, 2, 5 × 10ⁿ at or above `n` (1 for nothing), the top of an axis. */
export function niceCeil(n: number): number {
  if (n <= 0) return 1
  const p = 10 ** Math.floor(Math.log10(n))
  for (const m of [1, 2, 5, 10]) if (m * p >= n) return m * p
  return 10 * p
}

/** Where day `i` of `count` stands: its slot's start and width, mirrored for right-to-left. */
function slot(i: number, count: number, rtl: boolean) {
  const width = (W - 2 * PAD.side) / count
  const position = rtl ? count - 1 - i : i
  return { x: PAD.side + position * width, width }
}

const h = (value: number, top: number) => (top > 0 ? (value / top) * PLOT_H : 0)
const r = (n: number) => Math.round(n * 10) / 10

/** The frame both charts share: title, the top and zero lines, the top's label, a few dates. */
function Frame(props: {
  ctx: DashContext
  id: string
  summary: string
  topLabel: string
  dates: string[]
  children: Child
}) {
  const { ctx, dates } = props
  const rtl = ctx.t('dir') === 'rtl'
  const edge = rtl ? W - PAD.side : PAD.side
  const last = dates.length - 1
  const marks = [0, 7, 14, 21, last].filter((i) => i <= last)
  return (
    <svg
      class="chart"
      id={props.id}
      viewBox={`0 0 ${W} ${H}`}
      role="img"
      aria-labelledby={`${props.id}-title`}
      direction={rtl ? 'rtl' : 'ltr'}
    >
      <title id={`${props.id}-title`}>{props.summary}</title>
      <line class="grid" x1={PAD.side} x2={W - PAD.side} y1={PAD.top} y2={PAD.top} />
      <line
        class="grid"
        x1={PAD.side}
        x2={W - PAD.side}
        y1={PAD.top + PLOT_H / 2}
        y2={PAD.top + PLOT_H / 2}
      />
      <text class="axis" x={edge} y={PAD.top - 8} text-anchor="start">
        {props.topLabel}
      </text>
      {props.children}
      <line class="base" x1={PAD.side} x2={W - PAD.side} y1={BASE} y2={BASE} />
      {marks.map((i) => {
        const s = slot(i, dates.length, rtl)
        // The first and last labels are held inside the frame by their outer edge.
        const outer = (i === 0) !== rtl ? s.x : s.x + s.width
        const x = i === 0 || i === last ? outer : s.x + s.width / 2
        const anchor = i === 0 ? 'start' : i === last ? 'end' : 'middle'
        return (
          <text class="axis" x={r(x)} y={H - 8} text-anchor={anchor}>
            {shortDate(dates[i]!, ctx.lang)}
          </text>
        )
      })}
    </svg>
  )
}

/** The money collected per day: one bar a day (zero high on a day without money). */
export function CollectedChart(props: { ctx: DashContext; days: OverviewDay[]; summary: string }) {
  const { ctx, days } = props
  const rtl = ctx.t('dir') === 'rtl'
  const most = Math.max(0, ...days.map((d) => d.collected))
  // The axis in whole dinars: centimes rounded up to a round number of DA.
  const top = niceCeil(Math.ceil(most / 100)) * 100
  return (
    <Frame
      ctx={ctx}
      id="chart-collected"
      summary={props.summary}
      topLabel={formatAmount(top, ctx.lang).replace(/[.,]00(?=\u00a0)/, '')}
      dates={days.map((d) => d.date)}
    >
      <g class="bars">
        {days.map((day, i) => {
          const s = slot(i, days.length, rtl)
          const height = h(day.collected, top)
          return (
            <rect
              class="bar money"
              data-date={day.date}
              data-value={day.collected}
              x={r(s.x + s.width * 0.15)}
              y={r(BASE - height)}
              width={r(s.width * 0.7)}
              height={r(height)}
            >
              <title>{`${shortDate(day.date, ctx.lang)}: ${formatAmount(day.collected, ctx.lang)}`}</title>
            </rect>
          )
        })}
      </g>
    </Frame>
  )
}

const KINDS = ['paid', 'failed', 'other'] as const

/** Payments started per day, one stacked bar a day: paid at the bottom, failed, then other. */
export function OutcomesChart(props: { ctx: DashContext; days: OverviewDay[]; summary: string }) {
  const { ctx, days } = props
  const t = ctx.t
  const rtl = t('dir') === 'rtl'
  const totals = days.map((d) => d.outcomes.paid + d.outcomes.failed + d.outcomes.other)
  const top = niceCeil(Math.max(0, ...totals))
  const label = { paid: t('ovPaid'), failed: t('ovFailed'), other: t('ovOther') }
  return (
    <Frame
      ctx={ctx}
      id="chart-outcomes"
      summary={props.summary}
      topLabel={formatCount(top, ctx.lang)}
      dates={days.map((d) => d.date)}
    >
      <g class="bars">
        {days.map((day, i) => {
          const s = slot(i, days.length, rtl)
          let y = BASE
          const text = KINDS.map((k) => `${label[k]} ${formatCount(day.outcomes[k], ctx.lang)}`)
          return (
            <g class="day" data-date={day.date}>
              <title>{`${shortDate(day.date, ctx.lang)}: ${text.join(', ')}`}</title>
              {KINDS.filter((k) => day.outcomes[k] > 0).map((k) => {
                const height = h(day.outcomes[k], top)
                y -= height
                return (
                  <rect
                    class={`bar ${k}`}
                    data-kind={k}
                    data-value={day.outcomes[k]}
                    x={r(s.x + s.width * 0.15)}
                    y={r(y)}
                    width={r(s.width * 0.7)}
                    height={r(height)}
                  />
                )
              })}
            </g>
          )
        })}
      </g>
    </Frame>
  )
}

/** The outcome colours' key, in words. */
export function OutcomesLegend(props: { ctx: DashContext }) {
  const t = props.ctx.t
  return (
    <ul class="legend">
      {KINDS.map((k) => (
        <li>
          <span class={`swatch ${k}`} aria-hidden="true" />
          {t(k === 'paid' ? 'ovPaid' : k === 'failed' ? 'ovFailed' : 'ovOther')}
        </li>
      ))}
    </ul>
  )
}
