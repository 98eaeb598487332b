/**
 * Which payments and till sales a principal sees: the rule the payments list, its search and CSV
 * export, a payment's page, the merchant API and the till all apply, so no surface shows more.
 *
 * - A role with `payments.read` (owner, manager, viewer; the admin token) sees every payment.
 * - A role with only `payments.today` (cashier) sees the payments created today (the Algiers
 *   calendar day), those of links and of their own till sales: the README's "the till and today's
 *   payments". Another cashier's sales and older days are out of view, and answer as a payment
 *   that does not exist. An API key never acts as a cashier at the till, so a key without
 *   `payments.read` sees no payment.
 * - A till sale (its status, its event stream, Cancel) is its cashier's, and any manager's or
 *   owner's (`links.write`: a sale is a link they may change anyway); another cashier gets the
 *   answer of a sale that does not exist.
 */

import type { PaymentScope } from '../data/payments.js'
import { algiersDayStart, algiersNextDayStart, toAlgiersIso } from '../domain/algiers-time.js'
import { allows, type Principal, principalLabel } from './principal.js'

/**
 * What narrows the payments `principal` sees at `now`: `{}` for all of them, null for none (the
 * route's permission already refused such a principal; null is the second lock).
 */
export function paymentScopeOf(principal: Principal, now: number): PaymentScope | null {
  if (allows(principal, 'payments.read')) return {}
  if (principal.kind !== 'user' || !allows(principal, 'payments.today')) return null
  const today = toAlgiersIso(now).slice(0, 10)
  return {
    seenByCashier: principalLabel(principal),
    createdFrom: algiersDayStart(today)!,
    createdTo: algiersNextDayStart(today)!,
  }
}

/** `filters` narrowed to `scope`: the later start and the earlier end of the two. */
export function withinScope<F extends PaymentScope>(filters: F, scope: PaymentScope): F {
  const out = { ...filters }
  if (scope.seenByCashier !== undefined) out.seenByCashier = scope.seenByCashier
  if (scope.createdFrom !== undefined)
    out.createdFrom = Math.max(scope.createdFrom, filters.createdFrom ?? scope.createdFrom)
  if (scope.createdTo !== undefined)
    out.createdTo = Math.min(scope.createdTo, filters.createdTo ?? scope.createdTo)
  return out
}

/** Whether `principal` may see and cancel the till sale that `createdBy` (a label) made. */
export function maySeeSale(principal: Principal, createdBy: string | null): boolean {
  if (allows(principal, 'links.write')) return true
  return principal.kind === 'user' && createdBy !== null && createdBy === principalLabel(principal)
}
