/**
 * Confirming a payment's outcome through the gateway's check endpoint — the only source Paylinks
 * trusts. The return query and the webhook only tell it *when* to ask. Status, response code,
 * amount and receiving account must all match before a payment is `paid`.
 */

import type { Payment, TransitionCause } from '../../db/schema.js'
import { GatewayNotFoundError } from '../client/index.js'
import { applyOutcome, getPaymentById, markError, scheduleNextCheck } from '../data/payments.js'
import { INITIATED_TIMEOUT_MS } from '../domain/check-schedule.js'
import { failureCodeOf } from '../domain/failure-reasons.js'
import type { Outcome } from '../domain/payment-state.js'
import { logTransition } from './transition-log.js'

/**
 * A payment the gateway still calls unpaid this long after it started counts as expired. The card
 * session itself lasts minutes; waiting far longer makes a later "paid" (which would still win)
 * practically impossible, so an expired payment can give its place back safely.
 */
export const EXPIRE_UNANSWERED_AFTER_MS = 60 * 60_000

/** What a confirmation needs: the app's dependencies of the same names (see src/deps.ts). */
import type { ConfirmDeps, ConfirmResult } from '../deps.js'

export type { ConfirmDeps, ConfirmResult }

/**
 * Asks the gateway for the payment's current state and applies it with one conditional write.
 * A gateway error leaves the payment as it is and schedules another check.
 */
export async function confirmPayment(
  deps: ConfirmDeps,
  payment: Payment,
  cause: TransitionCause,
): Promise<ConfirmResult> {
  const now = deps.clock()
  if (payment.status === 'paid') return { payment, changed: false, checked: true }
  if (!payment.cibTransactionId) {
    if (payment.status === 'initiated' && now - payment.createdAt > INITIATED_TIMEOUT_MS) {
      const result = await markError(
        deps.db,
        payment.id,
        'no answer from the gateway at creation',
        now,
        cause,
      )
      return { payment: result.payment ?? payment, changed: result.changed, checked: true }
    }
    return { payment, changed: false, checked: false }
  }
  let check: CardCheck
  try {
    check = await deps.gateway.card.check(payment.cibTransactionId, {
      amount: payment.amount,
      account: deps.merchantAccount,
    })
  } catch (error) {
    // An order the gateway does not know yet is still pending; anything else: try again later.
    if (!(error instanceof GatewayNotFoundError)) {
      deps.log({
        level: 'warn',
        event: 'check_failed',
        payment_id: payment.id,
        error: String((error as Error)?.name),
      })
    }
    await scheduleNextCheck(deps.db, payment, now)
    return { payment, changed: false, checked: error instanceof GatewayNotFoundError }
  }
  return applyCheck(deps, payment, check, cause)
}

/** The check endpoint's answer, read into an outcome (amount and account already compared). */
export type CardCheck = Awaited<ReturnType<ConfirmDeps['gateway']['card']['check']>>

/**
 * Applies a check answer to a payment holding its gateway ids: settles it with one conditional
 * write, or (still pending) schedules the next check, or expires it when unanswered too long.
 */
export async function applyCheck(
  deps: ConfirmDeps,
  payment: Payment,
  check: CardCheck,
  cause: TransitionCause,
): Promise<ConfirmResult> {
  const now = deps.clock()
  const details = {
    message: check.message,
    approvalCode: check.approvalCode,
    orderNumber: check.orderNumber,
    respCode: check.respCode,
    actionCode:
      check.actionCode === null || check.actionCode === undefined ? null : String(check.actionCode),
    checkResponse: check.raw,
    errorReason: check.mismatch ? `check ${check.mismatch} does not match the payment` : null,
  }
  if (check.mismatch) {
    deps.log({
      level: 'warn',
      event: 'check_mismatch',
      payment_id: payment.id,
      mismatch: check.mismatch,
    })
  }
  // The reason travels in the same conditional write as the outcome.
  const why = (o: Outcome) => ({
    ...details,
    failureCode: failureCodeOf(o, check, !!check.mismatch),
  })
  if (check.outcome === 'pending') {
    if (now - payment.createdAt > EXPIRE_UNANSWERED_AFTER_MS)
      return settle(deps, payment, 'expired', why('expired'), cause)
    await scheduleNextCheck(deps.db, payment, now, check.raw)
    return { payment, changed: false, checked: true }
  }
  return settle(deps, payment, check.outcome, why(check.outcome), cause)
}

async function settle(
  deps: ConfirmDeps,
  payment: Payment,
  outcome: 'paid' | 'failed' | 'canceled' | 'expired',
  details: Parameters<typeof applyOutcome>[3],
  cause: TransitionCause,
): Promise<ConfirmResult> {
  const result = await applyOutcome(deps.db, payment.id, outcome, details, deps.clock(), cause)
  if (result.changed) {
    logTransition(deps.log, payment, payment.status, outcome)
    deps.outbound?.kick(deps.background)
    deps.paymentChanges?.emit(payment.linkId)
  }
  const fresh = result.payment ?? (await getPaymentById(deps.db, payment.id)) ?? payment
  return { payment: fresh, changed: result.changed, checked: true }
}
