/**
 * Why a payment did not succeed, read from the card network's answers (SATIM: the check answer's
 * `actionCode`, `respCode`, `orderStatus`, `errorCode`; the webhook's `action_code`, `resp_code`,
 * `order_status`, `error_code`) into one of FAILURE_CODES. Pure: the live path (confirm.ts), the
 * backfill of migration 0010 (its SQL mirrors `failureCodeOf` over the stored columns, and
 * test/domain/failure-reasons.test.ts runs both over the same table) and the pages all agree.
 */
import type { FailureCode, PaymentStatus } from '../../db/schema.js'

// Read as the gateway client reads its answers (numbers and numeric strings mixed).
const isObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v)
const asString = (v: unknown): string | undefined =>
  typeof v === 'string' ? v : typeof v === 'number' && Number.isFinite(v) ? String(v) : undefined
function asInteger(v: unknown): number | undefined {
  const n =
    typeof v === 'number'
      ? v
      : typeof v === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(v)
        ? Number(v)
        : NaN
  return Number.isSafeInteger(n) ? n : undefined
}

/** The fields of a network answer that tell why (any may be absent). */
export interface NetworkAnswer {
  orderStatus?: number | null
  errorCode?: number | null
  respCode?: string | null
  actionCode?: number | null
}

/**
 * The card platform's action codes that name a reason. From the documents: 116 insufficient
 * funds (webhook), -2007 session expired and 10 cancelled (gateway facts); the simulator's test
 * cards add 100 (do not honour) and 101 (expired card). The others are the platform's published
 * codes for the same reasons (117 wrong PIN, -2005/-2006/151017 3-D Secure refused, 907/909/910
 * issuer or system unavailable). Any other non-zero code reads as `declined`.
 */
export const ACTION_CODE_REASONS: Readonly<Record<string, FailureCode>> = {
  '116': 'insufficient_funds',
  '101': 'expired_card',
  '100': 'declined',
  '117': 'authentication_failed',
  '-2005': 'authentication_failed',
  '-2006': 'authentication_failed',
  '151017': 'authentication_failed',
  '10': 'canceled_by_customer',
  '-2007': 'session_expired',
  '907': 'gateway_error',
  '909': 'gateway_error',
  '910': 'gateway_error',
}

/**
 * ISO 8583 response codes (`respCode`; the documents show `00` approved and `05` declined), read
 * when the action code names no reason. Any other code but `00` reads as `declined`.
 */
export const RESP_CODE_REASONS: Readonly<Record<string, FailureCode>> = {
  '05': 'declined',
  '51': 'insufficient_funds',
  '54': 'expired_card',
  '33': 'expired_card',
  '55': 'authentication_failed',
  '91': 'gateway_error',
  '96': 'gateway_error',
}

/** The card network's `errorCode` 7: a system error on its side. */
const SYSTEM_ERROR = 7

/** The reason a network answer gives for a payment that did not succeed. */
export function declineReason(answer: NetworkAnswer): FailureCode {
  const { actionCode, respCode, orderStatus, errorCode } = answer
  const hasAction = actionCode !== null && actionCode !== undefined
  const byAction = hasAction ? ACTION_CODE_REASONS[String(actionCode)] : undefined
  if (byAction) return byAction
  const byResp = respCode ? RESP_CODE_REASONS[respCode] : undefined
  if (byResp) return byResp
  if (errorCode === SYSTEM_ERROR) return 'gateway_error'
  if (
    (hasAction && actionCode !== 0) ||
    (respCode && respCode !== '00') ||
    orderStatus === 6 ||
    orderStatus === -1 ||
    errorCode === 2
  )
    return 'declined'
  // Reversed or refunded (3, 4) with no code, or nothing known.
  return 'unknown'
}

/**
 * The failure code a payment settled in `status` carries: none while it is in flight or paid;
 * `error` (the gateway refused or never answered the creation) is `gateway_error`; `expired` is
 * `session_expired` (the network said -2007, or nobody answered for an hour); `canceled` comes
 * only from action code 10; a check whose amount or account did not match its "paid" is a
 * `gateway_error` (the gateway's answer cannot be trusted); otherwise the answer's reason.
 */
export function failureCodeOf(
  status: PaymentStatus,
  answer: NetworkAnswer,
  mismatch = false,
): FailureCode | null {
  switch (status) {
    case 'initiated':
    case 'pending':
    case 'paid':
      return null
    case 'error':
      return 'gateway_error'
    case 'expired':
      return 'session_expired'
    case 'canceled':
      return 'canceled_by_customer'
    case 'failed':
      return mismatch ? 'gateway_error' : declineReason(answer)
  }
}

/** The reason fields of a `cib.payment.updated` webhook body. */
export function webhookAnswer(payload: unknown): NetworkAnswer {
  const body = isObject(payload) ? payload : {}
  return {
    orderStatus: asInteger(body.order_status) ?? null,
    errorCode: asInteger(body.error_code) ?? null,
    respCode: asString(body.resp_code)?.trim() || null,
    actionCode: asInteger(body.action_code) ?? null,
  }
}

/** The error_reason a check whose "paid" did not match the payment leaves (confirm.ts). */
export const MISMATCH_REASONS: readonly string[] = ['amount', 'account'].map(
  (what) => `check ${what} does not match the payment`,
)

// Stored values count only in their canonical integer form ("116", not "0116" or " 116"): what
// the app writes, and what migration 0010's SQL can compare exactly (CAST … AS TEXT).
function storedInteger(v: unknown): number | null {
  if (typeof v === 'number') return Number.isSafeInteger(v) ? v : null
  return typeof v === 'string' && /^(0|-?[1-9]\d*)$/.test(v) ? Number(v) : null
}

/**
 * A stored payment's answer: its `resp_code` and `action_code` columns and the stored check
 * answer's `orderStatus` and `errorCode`. What migration 0010's backfill reads in SQL.
 */
export function storedAnswer(row: {
  respCode: string | null
  actionCode: string | null
  checkResponse: unknown
}): NetworkAnswer {
  const check = isObject(row.checkResponse) ? row.checkResponse : {}
  return {
    respCode: row.respCode || null,
    actionCode: storedInteger(row.actionCode),
    orderStatus: storedInteger(check.orderStatus),
    errorCode: storedInteger(check.errorCode),
  }
}

/** The failure code of a stored payment, as the backfill computes it. */
export function storedFailureCode(row: {
  status: PaymentStatus
  respCode: string | null
  actionCode: string | null
  checkResponse: unknown
  errorReason: string | null
}): FailureCode | null {
  const mismatch = MISMATCH_REASONS.includes(row.errorReason ?? '')
  return failureCodeOf(row.status, storedAnswer(row), mismatch)
}

/** English merchant wording of each code: the API's `failure_message` and the CSV's. */
export const FAILURE_MESSAGES_EN: Readonly<Record<FailureCode, string>> = {
  insufficient_funds: 'Insufficient funds',
  expired_card: 'Card expired',
  declined: 'Declined by the bank',
  authentication_failed: 'Card authentication failed (3-D Secure or PIN)',
  canceled_by_customer: 'Canceled by the customer',
  session_expired: 'Card session expired',
  gateway_error: 'Payment gateway error',
  unknown: 'Unknown reason',
}

const MESSAGE_MAX = 200
// Controls and the bidi overrides/isolates: the text is shown inside a <bdi> of its own.
const UNSHOWABLE = /[\p{Cc}\p{Cs}\u200e\u200f\u202a-\u202e\u2066-\u2069\ufffd\ufffe\uffff]/gu

/** Gateway text made showable: one line, no direction controls, at most 200 characters. */
export function showableGatewayText(value: unknown): string | null {
  const text = asString(value)?.replace(UNSHOWABLE, ' ').replace(/\s+/g, ' ').trim()
  if (!text) return null
  const chars = [...text]
  return chars.length > MESSAGE_MAX ? `${chars.slice(0, MESSAGE_MAX - 1).join('')}…` : text
}

/**
 * The gateway's own message to the customer, from a stored check answer: `respCode_desc`, else
 * `actionCodeDescription` (gateway-facts.md). Untrusted text, made showable; null when absent.
 */
export function gatewayMessageOf(checkResponse: unknown): string | null {
  if (!isObject(checkResponse)) return null
  return (
    showableGatewayText(checkResponse.respCode_desc) ??
    showableGatewayText(checkResponse.actionCodeDescription)
  )
}
