import { failureLabel } from '../../views/dashboard/failure-label.js'
import type { Language } from '../config.js'
import type { Sale } from '../data/till.js'
import { linkUrls } from '../domain/public-urls.js'
import { type SaleView, saleFailure, saleState } from '../domain/till-sale.js'
import { formatAmount, formatDateTime } from '../i18n/index.js'
import type { DashTranslate } from './messages.js'

export type { SaleView }

/** A sale for the till: its state now, and what the paid or declined screen says. */
export function saleView(
  ctx: { t: DashTranslate; lang: Language },
  sale: Sale,
  publicUrl: string,
  now: number,
): SaleView {
  const { link, payment } = sale
  const state = saleState(link, payment, now)
  const paid = state === 'paid' && payment?.status === 'paid' ? payment : null
  const failure = state === 'declined' ? saleFailure(payment) : null
  const amount = paid?.amount ?? link.amount ?? 0
  return {
    id: link.id,
    state,
    amount,
    amountText: formatAmount(amount, ctx.lang),
    url: linkUrls(publicUrl, link.slug).url,
    note: link.description,
    expiresAt: link.expiresAt,
    paidAt: paid?.paidAt ?? null,
    paidAtText: paid?.paidAt ? formatDateTime(paid.paidAt, ctx.lang) : null,
    approvalCode: paid?.approvalCode ?? null,
    customerName: paid?.customerName ?? null,
    failureCode: failure,
    failureText: failure ? failureLabel(ctx, failure) : null,
  }
}
