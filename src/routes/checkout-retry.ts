/**
 * "Try again" after a payment that did not go through: the checkout opened again with what the
 * customer typed the first time. The retry address names only the unsuccessful payment's receipt
 * id (`/l/:slug?lang=ar&retry=<receiptId>`); the name, phone, e-mail, amount and reference are read
 * back from that payment on the server, so none of them sits in an address, a browser's history
 * or a server's log (docs/decisions/checkout-retry.md). Card data never reaches Paylinks.
 */
import type { Link } from '../../db/schema.js'
import type { CheckoutProps } from '../../views/checkout.js'
import type { Language } from '../config.js'
import type { Db } from '../data/db.js'
import { getPaymentByReceiptId } from '../data/payments.js'
import { answerName } from '../domain/custom-fields.js'
import { isReceiptIdShaped } from '../domain/ids.js'
import { UNSUCCESSFUL } from '../domain/payment-state.js'
import { centimesToDzdShort } from '../lib/money.js'

/**
 * How long after it started a payment still fills its retry: a retry comes minutes after the
 * decline; past a day, an old address in a shared phone's history fills nobody's details.
 */
export const RETRY_PREFILL_MS = 24 * 60 * 60_000

/** The address of "Try again" for an unsuccessful payment of `slug`. */
export function retryHref(slug: string, lang: Language, receiptId: string): string {
  return `/l/${slug}?lang=${lang}&retry=${encodeURIComponent(receiptId)}`
}

/**
 * The form's values kept from the unsuccessful payment `receiptId` names, or null when it names
 * none that may fill this link's form: unknown, another link's, paid or still unsettled, or
 * started more than RETRY_PREFILL_MS ago. The amount only for an open link (a fixed one has no
 * field), as the decimal text a customer types.
 */
export async function retryValues(
  db: Db,
  link: Pick<Link, 'id' | 'amount'>,
  receiptId: string,
  now: number,
): Promise<CheckoutProps['values'] | null> {
  if (!isReceiptIdShaped(receiptId)) return null
  const payment = await getPaymentByReceiptId(db, receiptId)
  if (!payment || payment.linkId !== link.id || !UNSUCCESSFUL.includes(payment.status)) return null
  if (now - payment.createdAt > RETRY_PREFILL_MS) return null
  return {
    name: payment.customerName,
    phone: payment.customerPhone,
    email: payment.customerEmail,
    amount: link.amount === null ? centimesToDzdShort(payment.amount) : undefined,
    ref: payment.ref ?? undefined,
    // The answers to the link's questions, as the form names them (`cf_<key>`).
    ...Object.fromEntries(
      Object.entries(payment.customFields ?? {}).map(([key, value]) => [answerName(key), value]),
    ),
  }
}
