/** A link's state as a customer meets it, and the amount a checkout may charge on it. */

import type { Link } from '../../db/schema.js'
import { parseDzd } from '../lib/money.js'
import { MAX_AMOUNT } from './amount-bounds.js'

export const LINK_STATUSES = ['active', 'inactive', 'expired', 'completed'] as const
export type LinkStatus = (typeof LINK_STATUSES)[number]

/** An invoice link settles one invoice: a gateway invoice id, or items Paylinks invoiced. */
export function isInvoiceLink(link: Pick<Link, 'invoiceId' | 'invoiceItems'>): boolean {
  return link.invoiceId !== null || link.invoiceItems !== null
}

/** A deposit link (`allow_partial`) is paid in parts until its amount is paid in full. */
export function isDepositLink(link: Pick<Link, 'partialMinAmount' | 'amount'>): boolean {
  return link.partialMinAmount != null && link.amount != null
}

/**
 * What remains to pay on a fixed or invoice link: its amount less what was paid toward it
 * (`paid_total`, customer fees apart), never below 0 (a part paid late, after its hold was
 * released, may pass the amount); null for an open amount.
 */
export function linkBalance(
  link: Pick<Link, 'amount'>,
  counts: { paidTotal: number },
): number | null {
  return link.amount === null ? null : Math.max(0, link.amount - counts.paidTotal)
}

/**
 * The link's state at `now`. A merchant's "off" wins (its message is what the customer should
 * read), then a completed link (all places paid, or a deposit link paid in full), then expiry.
 * A row read from the table carries `partialMinAmount` and `paidTotal`; without them a link is
 * read as no deposit link.
 */
export function linkStatus(
  link: Pick<Link, 'active' | 'expiresAt' | 'maxPayments'> &
    Partial<Pick<Link, 'amount' | 'partialMinAmount'>>,
  counts: { paidCount: number; paidTotal?: number },
  now: number,
): LinkStatus {
  if (!link.active) return 'inactive'
  if (link.maxPayments !== null && counts.paidCount >= link.maxPayments) return 'completed'
  if (
    link.partialMinAmount != null &&
    link.amount != null &&
    (counts.paidTotal ?? 0) >= link.amount
  )
    return 'completed'
  if (link.expiresAt !== null && link.expiresAt <= now) return 'expired'
  return 'active'
}

export type AmountCheck =
  | { ok: true; amount: number }
  | { ok: false; reason: 'required' | 'invalid' | 'below_min' | 'above_max'; limit?: number }

/**
 * The amount to charge: the link's own for fixed and invoice links; for an open link the
 * customer's entry (DZD text or number, at most two decimals) within the link's range.
 */
export function amountForPayment(
  link: Pick<Link, 'amount' | 'amountMin' | 'amountMax'>,
  entered: string | number | null | undefined,
): AmountCheck {
  if (link.amount !== null) return { ok: true, amount: link.amount }
  if (entered === null || entered === undefined || entered === '')
    return { ok: false, reason: 'required' }
  const amount = parseDzd(entered)
  if (amount === null) return { ok: false, reason: 'invalid' }
  const min = link.amountMin ?? 0
  const max = link.amountMax ?? MAX_AMOUNT
  if (amount < min) return { ok: false, reason: 'below_min', limit: min }
  if (amount > max) return { ok: false, reason: 'above_max', limit: max }
  return { ok: true, amount }
}
