/**
 * `GET {site}/cib-transaction-check/?order_number=…` and the reading of its answer into an outcome.
 * The answer is in the card network's vocabulary, with numbers and strings mixed; a payment is
 * paid only when status, codes, amount and receiving account all agree (gateway-facts.md).
 */
import * as z from 'zod'
import { type Centimes, parseDzd } from '../../lib/money.js'
import { type ClientContext, sendSite } from '../core/context.js'
import { GatewayNotFoundError } from '../core/errors.js'
import { asInteger, asString, isObject, type JsonObject } from '../core/parse.js'
import { objectBody } from '../core/response.js'
import type { CallOptions } from '../core/transport.js'
import { accountId, idInput, validate } from '../core/validate.js'
import { cardPath } from './create.js'

export type CardOutcome = 'paid' | 'pending' | 'failed' | 'canceled' | 'expired'

/** What the merchant expects of the payment; a paid answer that differs is never `paid`. */
export interface CardCheckExpectation {
  /** Expected amount in centimes. */
  amount?: Centimes
  /** Expected receiving account (`G…`). */
  account?: string
}

export interface CardCheckResult {
  /** The answer as received (the 404 body when the order is not known yet). */
  raw: JsonObject
  outcome: CardOutcome
  orderStatus: number | null
  errorCode: number | null
  respCode: string | null
  actionCode: number | null
  /** For the customer: `respCode_desc`, else `actionCodeDescription`, else `errorMessage`. */
  message: string | null
  approvalCode: string | null
  /** `Amount` in centimes. */
  amount: Centimes | null
  account: string | null
  orderNumber: string | null
  /** The card network's order id, when the answer carries it (`orderId`). */
  orderId: string | null
  /** Set when the status says paid but the amount or the account differs. */
  mismatch?: 'amount' | 'account'
}

export interface InterpretOptions {
  /** Unit of the answer's `Amount`: the card network's centimes (default) or DZD. */
  amountUnit?: 'centimes' | 'dzd'
}

const expectationSchema = z.strictObject({
  amount: z
    .number({ error: 'must be a number of centimes' })
    .int('must be a whole number of centimes')
    .min(0, 'must not be negative')
    .optional(),
  account: accountId().optional(),
})

function nonEmpty(value: unknown): string | null {
  const text = asString(value)?.trim()
  return text ? text : null
}

function respCodeOf(value: unknown): string | null {
  if (typeof value === 'number' && Number.isInteger(value)) return String(value).padStart(2, '0')
  return nonEmpty(value)
}

/** Reads a check answer into an outcome, applying the amount and account checks. */
export function interpretCardCheck(
  raw: JsonObject,
  expect: CardCheckExpectation = {},
  options: InterpretOptions = {},
): CardCheckResult {
  const amountField = raw.Amount ?? raw.amount
  const amount =
    options.amountUnit === 'dzd'
      ? (() => {
          const text = asString(amountField)
          return text === undefined ? null : parseDzd(text)
        })()
      : (asInteger(amountField) ?? null)
  const result: CardCheckResult = {
    raw,
    outcome: 'pending',
    orderStatus: asInteger(raw.orderStatus) ?? asInteger(raw.OrderStatus) ?? null,
    errorCode: asInteger(raw.errorCode) ?? asInteger(raw.ErrorCode) ?? null,
    respCode: respCodeOf(raw.respCode),
    actionCode: asInteger(raw.actionCode) ?? null,
    message:
      nonEmpty(raw.respCode_desc) ??
      nonEmpty(raw.actionCodeDescription) ??
      nonEmpty(raw.errorMessage) ??
      nonEmpty(raw.ResponseDescription),
    approvalCode: nonEmpty(raw.approvalCode),
    amount,
    account: nonEmpty(raw.destination_account),
    orderNumber: nonEmpty(raw.order_number) ?? nonEmpty(raw.OrderNumber),
    orderId: nonEmpty(raw.orderId) ?? nonEmpty(raw.OrderId),
  }
  result.outcome = outcomeOf(result, expect)
  return result
}

function outcomeOf(r: CardCheckResult, expect: CardCheckExpectation): CardOutcome {
  if (r.actionCode === -2007) return 'expired'
  if (r.actionCode === 10) return 'canceled'
  if (r.orderStatus === 2) {
    if (r.errorCode !== 0 || r.respCode !== '00') return 'failed'
    if (expect.amount !== undefined && r.amount !== expect.amount) {
      r.mismatch = 'amount'
      return 'failed'
    }
    if (expect.account !== undefined && r.account !== expect.account) {
      r.mismatch = 'account'
      return 'failed'
    }
    return 'paid'
  }
  // 0 registered, 1 approved but held (not deposited): not paid yet.
  if (r.orderStatus === 0 || r.orderStatus === 1) return 'pending'
  if (r.orderStatus === 3 || r.orderStatus === 4 || r.orderStatus === 6 || r.orderStatus === -1)
    return 'failed'
  // An answer without a status we know is re-checked later rather than guessed.
  return 'pending'
}

/** Checks a card payment by its `cib_transaction_id`; a read, so transient failures are retried. */
export async function checkCardTransaction(
  ctx: ClientContext,
  cibTransactionId: string | number,
  expect: CardCheckExpectation = {},
  options?: CallOptions,
): Promise<CardCheckResult> {
  const { id } = validate(idInput, { id: cibTransactionId })
  const expected = validate(expectationSchema, expect, 'Invalid expectation')
  const path = cardPath(ctx, 'cib-transaction-check')
  let raw: JsonObject
  try {
    const res = await sendSite(ctx, 'GET', path, {
      query: { order_number: id },
      idempotent: true,
      options,
    })
    raw = objectBody(res, path)
  } catch (error) {
    // The gateway answers 404 for an order it does not know yet: the customer has not paid.
    if (!(error instanceof GatewayNotFoundError)) throw error
    const body = isObject(error.body) ? error.body : {}
    return { ...interpretCardCheck(body, {}, {}), outcome: 'pending' }
  }
  return interpretCardCheck(raw, expected, { amountUnit: ctx.checkAmountUnit })
}
