/**
 * The one log line of a payment's change of state, `payment_transition`: operators follow a
 * payment by it and tests read it, so every state change writes it the same way here.
 */
import type { Payment, PaymentStatus } from '../../db/schema.js'
import type { Logger } from '../log.js'

/**
 * Logs that `payment` moved from `from` to `to`. A move that has a `reason` left the usual path
 * (a gateway failure, a timeout, an adoption) and is logged as a warning.
 */
export function logTransition(
  log: Logger,
  payment: Pick<Payment, 'id'>,
  from: PaymentStatus,
  to: PaymentStatus,
  reason?: string,
): void {
  const line = { event: 'payment_transition', payment_id: payment.id, from, to }
  log(reason === undefined ? line : { level: 'warn', ...line, reason })
}
