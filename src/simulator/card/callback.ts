/**
 * The signed pair the gateway attaches to the return redirect and the webhook: `message` (built as
 * gateway-facts.md infers, or as configured) and its RSA signature with the simulator's key.
 */

import type { MessageFormat } from '../context.js'
import type { CardTransaction } from '../state.js'
import { type Centimes, dzdShortText, dzdText } from '../wire/amounts.js'
import { signMessage } from '../wire/signature.js'

/** Builds `message` from the return URL's own query values, the payment status and the amount. */
export function buildMessage(
  format: MessageFormat,
  returnUrl: string | null,
  paymentStatus: string,
  amount: Centimes,
): string {
  const queryValues = returnUrl ? [...new URL(returnUrl).searchParams.values()] : []
  if (typeof format === 'function') return format({ queryValues, paymentStatus, amount })
  const text = format === 'decimal' ? dzdText(amount) : dzdShortText(amount)
  return `${queryValues.join('')}${paymentStatus}${text}`
}

/** `message` and its signature for one payment status. */
export async function signedPair(
  format: MessageFormat,
  signingKeyPem: string,
  tx: CardTransaction,
  paymentStatus: string,
): Promise<{ message: string; signature: string }> {
  const message = buildMessage(format, tx.returnUrl, paymentStatus, tx.amount)
  return { message, signature: await signMessage(message, signingKeyPem) }
}

/**
 * The URL the browser is sent back to: the return URL with its own query kept, then
 * `payment_status`, `transaction_id`, `cib_transaction_id` and, when `keep_return_url` was True,
 * `signature` and `message`.
 */
export async function returnRedirect(
  format: MessageFormat,
  signingKeyPem: string,
  tx: CardTransaction,
  paymentStatus: string,
): Promise<string | null> {
  if (!tx.returnUrl) return null
  const url = new URL(tx.returnUrl)
  url.searchParams.append('payment_status', paymentStatus)
  url.searchParams.append('transaction_id', tx.transactionId)
  url.searchParams.append('cib_transaction_id', tx.cibTransactionId)
  if (tx.keepReturnUrl) {
    const { message, signature } = await signedPair(format, signingKeyPem, tx, paymentStatus)
    url.searchParams.append('signature', signature)
    url.searchParams.append('message', message)
  }
  return url.toString()
}
