/**
 * Payment states and the transitions between them, as data. The data layer turns each rule into
 * one conditional UPDATE (`WHERE status IN (...)`), so a duplicate or concurrent delivery applies
 * once; this module is the single place the rules are written down.
 */
import { PAYMENT_STATUSES, type PaymentStatus } from '../../db/schema.js'

export { PAYMENT_STATUSES, type PaymentStatus }

/** The outcomes a confirmed check or webhook can settle a payment with. */
export const OUTCOMES = ['paid', 'failed', 'canceled', 'expired'] as const
export type Outcome = (typeof OUTCOMES)[number]

/** Statuses that ended without the money: with `paid`, the settled ones. */
export const UNSUCCESSFUL: readonly PaymentStatus[] = ['failed', 'canceled', 'expired', 'error']

/** For each target state, the states a payment may move to it from. */
export const TRANSITIONS_INTO: Readonly<Record<PaymentStatus, readonly PaymentStatus[]>> = {
  initiated: [],
  pending: ['initiated'],
  // The money was taken: a confirmed paid overrides an earlier failed/canceled/expired.
  paid: ['initiated', 'pending', 'failed', 'canceled', 'expired'],
  failed: ['initiated', 'pending'],
  canceled: ['initiated', 'pending'],
  expired: ['initiated', 'pending'],
  // The gateway refused the creation or could not be reached: no customer ever saw a card page.
  error: ['initiated'],
}

/** Whether a payment in state `from` may move to `to`. Nothing leaves `paid`. */
export function canTransition(from: PaymentStatus, to: PaymentStatus): boolean {
  return TRANSITIONS_INTO[to].includes(from)
}

/** States that hold one of a link's `max_payments` places (a pending payment may still succeed). */
export const PLACE_HOLDING_STATUSES = [
  'initiated',
  'pending',
  'paid',
] as const satisfies readonly PaymentStatus[]

/**
 * States of a payment whose gateway ids were never stored (the process died between creating the
 * card transaction and recording it, and the reconciler may since have made it `error`). When the
 * transaction turns up after all (its return or its webhook) and the check endpoint vouches for
 * it, it is adopted: ids stored and the payment `pending` again, in one conditional write
 * (src/data/payment-adopt.ts). The only way out of `error`.
 */
export const ADOPTABLE_STATUSES = ['initiated', 'error'] as const satisfies readonly PaymentStatus[]

/** States still waiting for the gateway's outcome. */
export const IN_FLIGHT_STATUSES = [
  'initiated',
  'pending',
] as const satisfies readonly PaymentStatus[]

/** States no transition leaves except towards `paid` (and `paid`, which nothing leaves). */
export function isSettled(status: PaymentStatus): boolean {
  return status !== 'initiated' && status !== 'pending'
}
