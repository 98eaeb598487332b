/** Card payments: creation (redirect=no), the browser redirect URL, and the status check. */
import type { ClientContext } from '../core/context.js'
import type { CallOptions } from '../core/transport.js'
import { type CardCheckExpectation, type CardCheckResult, checkCardTransaction } from './check.js'
import { type CardTransaction, cardRedirectUrl, createCardTransaction } from './create.js'
import type { CardPaymentParams } from './params.js'

export interface CardPayments {
  /** Creates a card transaction (`redirect=no`) and returns its payment URL. Never retried. */
  create(params: CardPaymentParams, options?: CallOptions): Promise<CardTransaction>
  /** The `redirect=yes` URL for a browser; validates the parameters and sends nothing. */
  redirectUrl(params: CardPaymentParams): string
  /** Checks a payment by `cib_transaction_id`, against the expected amount and account. */
  check(
    cibTransactionId: string | number,
    expect?: CardCheckExpectation,
    options?: CallOptions,
  ): Promise<CardCheckResult>
}

/** The card payment resource over one client context. */
export function createCard(ctx: ClientContext): CardPayments {
  return {
    create: (params, options) => createCardTransaction(ctx, params, options),
    redirectUrl: (params) => cardRedirectUrl(ctx, params),
    check: (id, expect, options) => checkCardTransaction(ctx, id, expect, options),
  }
}
