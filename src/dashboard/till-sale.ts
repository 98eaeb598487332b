/**
 * A till sale as the till shows it and as its live updates carry it (JSON): the same object for
 * the page the server renders, the polling endpoint and the event stream, so they cannot differ.
 */
import type { FailureCode } from '../../db/schema.js'
import { failureLabel } from '../../views/dashboard/failure-label.js'
import type { Language } from '../config.js'
import type { Sale } from '../data/till.js'
import { linkUrls } from '../domain/public-urls.js'
import { type SaleState, saleFailure, saleState } from '../domain/till-sale.js'
import { formatAmount, formatDateTime } from '../i18n/index.js'
import type { DashTranslate } from './messages.js'

export interface SaleView {
  id: string
  state: SaleState
  amount: number
  amountText: string
  /** The link the customer opens (the QR's content). */
  url: string
  note: string | null
  expiresAt: number | null
  paidAt: number | null
  paidAtText: string | null
  approvalCode: string | null
  customerName: string | null
  failureCode: FailureCode | null
  failureText: string | null
}

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
