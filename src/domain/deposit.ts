/**
 * Deposits and instalments: a fixed or invoice link with `allow_partial` (partial_min_amount) is
 * paid in parts. Each part is at least the link's minimum, or the whole balance when that is less,
 * and at most the balance; the link is completed when what was paid toward it (`paid_total`: each
 * paid payment's subtotal − discount, its customer fee apart) reaches the amount.
 */
import type { Link, LinkCounters } from '../../db/schema.js'
import { parseDzd } from '../lib/money.js'
import { linkBalance } from './link-status.js'

/** What the customer page of a deposit link shows, in centimes. */
export type DepositView = {
  /** The link's amount: the whole to pay. */
  total: number
  paid: number
  balance: number
  /** The least part the customer may pay now (the balance when it is below the minimum). */
  min: number
  /** The most: the balance. */
  max: number
}

/** The deposit view of a link, or null for a link that is not a deposit link. */
export function depositView(
  link: Pick<Link, 'amount' | 'partialMinAmount'>,
  counts: Pick<LinkCounters, 'paidTotal'>,
): DepositView | null {
  if (link.partialMinAmount === null || link.amount === null) return null
  const balance = linkBalance(link, counts) ?? 0
  return {
    total: link.amount,
    paid: Math.min(counts.paidTotal, link.amount),
    balance,
    min: Math.min(link.partialMinAmount, balance),
    max: balance,
  }
}

export type DepositCheck =
  | { ok: true; part: number }
  | { ok: false; reason: 'required' | 'invalid' | 'below_min' | 'above_max'; limit?: number }

/**
 * The part the customer chose (DZD text as typed), checked against the bounds of `view`: at least
 * `min` (the minimum, or the whole balance when it is less), at most the balance.
 */
export function checkDepositPart(
  view: DepositView,
  entered: string | number | null | undefined,
): DepositCheck {
  if (entered === null || entered === undefined || entered === '')
    return { ok: false, reason: 'required' }
  const part = parseDzd(entered)
  if (part === null) return { ok: false, reason: 'invalid' }
  if (part > view.max) return { ok: false, reason: 'above_max', limit: view.max }
  if (part < view.min) return { ok: false, reason: 'below_min', limit: view.min }
  return { ok: true, part }
}

/** What remains after a part of `part` on a balance of `before`: never below 0. */
export function remainingAfter(before: number, part: number): number {
  return Math.max(0, before - part)
}
