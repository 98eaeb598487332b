/**
 * The shift report's numbers: a day's till sales counted and summed per cashier and per outcome.
 * A paid sale counts what was paid; any other counts the amount the till asked for.
 */
import type { Sale } from '../data/till.js'
import { type SaleState, saleState } from '../domain/till-sale.js'

/** A sale's outcome in the report: still open (waiting or paying) or how it ended. */
export const REPORT_OUTCOMES = ['paid', 'declined', 'canceled', 'expired', 'open'] as const
export type ReportOutcome = (typeof REPORT_OUTCOMES)[number]

export type Tally = { count: number; sum: number }
export type CashierRow = { cashier: string; total: Tally } & Record<ReportOutcome, Tally>

export interface TillSummary {
  /** Every sale. */
  total: Tally
  byOutcome: Record<ReportOutcome, Tally>
  byCashier: CashierRow[]
}

/**
 * A sale's outcome for the report: a sale whose card was declined stays declined when the cashier
 * then cancels it or it expires (the shift's declines are what the report is read for).
 */
function outcomeOf(state: SaleState, sale: Sale): ReportOutcome {
  if (state === 'waiting' || state === 'paying') return 'open'
  if ((state === 'canceled' || state === 'expired') && sale.payment) return 'declined'
  return state
}

const zero = (): Tally => ({ count: 0, sum: 0 })
const outcomes = () =>
  Object.fromEntries(REPORT_OUTCOMES.map((o) => [o, zero()])) as Record<ReportOutcome, Tally>

function add(tally: Tally, amount: number) {
  tally.count += 1
  tally.sum += amount
}

/** Counts and sums `sales` as they stand at `now`; cashiers in order of their first sale. */
export function summariseSales(sales: readonly Sale[], now: number): TillSummary {
  const summary: TillSummary = { total: zero(), byOutcome: outcomes(), byCashier: [] }
  const rows = new Map<string, CashierRow>()
  for (const sale of sales) {
    const outcome = outcomeOf(saleState(sale.link, sale.payment, now), sale)
    const amount =
      outcome === 'paid'
        ? sale.payment?.status === 'paid'
          ? sale.payment.amount
          : sale.link.paidTotal
        : (sale.link.amount ?? 0)
    const cashier = sale.link.createdBy ?? ''
    let row = rows.get(cashier)
    if (!row) {
      row = { cashier, total: zero(), ...outcomes() }
      rows.set(cashier, row)
      summary.byCashier.push(row)
    }
    add(summary.total, amount)
    add(summary.byOutcome[outcome], amount)
    add(row.total, amount)
    add(row[outcome], amount)
  }
  return summary
}
