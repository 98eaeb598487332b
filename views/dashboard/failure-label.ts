/** A decline reason (FAILURE_CODES) in the merchant's words, wherever the dashboard names one. */
import type { FailureCode } from '../../db/schema.js'
import type { DashKey } from '../../src/dashboard/messages.js'
import type { DashContext } from './layout.js'

const FAILURE_KEYS: Record<FailureCode, DashKey> = {
  insufficient_funds: 'failureInsufficientFunds',
  expired_card: 'failureExpiredCard',
  declined: 'failureDeclined',
  authentication_failed: 'failureAuthenticationFailed',
  canceled_by_customer: 'failureCanceledByCustomer',
  session_expired: 'failureSessionExpired',
  gateway_error: 'failureGatewayError',
  unknown: 'failureUnknown',
}

/** A decline reason in the merchant's words, in the dashboard's language. */
export function failureLabel(ctx: Pick<DashContext, 't'>, code: FailureCode): string {
  return ctx.t(FAILURE_KEYS[code])
}
