/**
 * The return URL given to the gateway, and reading a payment back out of the signed `message`.
 * The gateway signs `message` = the return URL's own query values in order, then the payment
 * status, then the amount (gateway-facts.md, "Signatures"); the receipt id as the first query
 * value makes the signature vouch for which payment a callback or webhook is about, even when the
 * card transaction's ids were never stored (see src/payments/adopt.ts).
 */
import { receiptUrl } from './public-urls.js'

/** The query parameter carrying the receipt id (ignored by the receipt page itself). */
export const RECEIPT_PARAM = 'r'

/** `{publicUrl}/r/{receiptId}?r={receiptId}`: the receipt page, naming the receipt in its query. */
export function gatewayReturnUrl(publicUrl: string, receiptId: string): string {
  return `${receiptUrl(publicUrl, receiptId)}?${RECEIPT_PARAM}=${encodeURIComponent(receiptId)}`
}

// Receipt ids are 22 base62 characters (newReceiptId); the status that follows is lower-case
// letters, so the first 22 characters are the id whenever the message starts with one.
const LEADING_RECEIPT_ID = /^[0-9A-Za-z]{22}/

/**
 * The receipt id a signed `message` starts with, or null. Payments created before the return URL
 * carried it have messages starting with the status, too short or naming no receipt.
 */
export function receiptIdInMessage(message: string): string | null {
  return LEADING_RECEIPT_ID.exec(message)?.[0] ?? null
}
