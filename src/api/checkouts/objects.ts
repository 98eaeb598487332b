/**
 * The checkout object of the merchant API: the mapping from a checkout row and what it reads of
 * its link (the page's slug, the metadata, the language). Its zod schemas, from which the OpenAPI
 * document is made, are in object-schemas.ts (re-exported here). Amounts go back to DZD numbers,
 * times to ISO 8601.
 */
import type { Checkout } from '../../../db/schema.js'
import type { CheckoutLink } from '../../data/checkouts.js'
import { linkUrls } from '../../domain/public-urls.js'
import { storedDzdNumber } from '../../domain/stored-amount.js'
import { isShowableTime } from '../../domain/stored-time.js'
import type { CheckoutObject } from './object-schemas.js'

export { type CheckoutObject, checkoutList, checkoutObject } from './object-schemas.js'

const iso = (ms: number) => new Date(ms).toISOString()
// A time no Date can hold (written by other means) reads as none, like an unset one.
const isoOrNull = (ms: number | null) => (isShowableTime(ms) ? iso(ms) : null)

/** A checkout row, with its link, as the API's checkout object. */
export function toCheckoutObject(
  checkout: Checkout,
  link: Pick<CheckoutLink, 'slug' | 'metadata' | 'language'>,
  opts: { publicUrl: string },
): CheckoutObject {
  return {
    id: checkout.id,
    // The link's own page: a checkout is a link with one place (docs/decisions/checkouts.md).
    url: linkUrls(opts.publicUrl, link.slug).url,
    status: checkout.status,
    amount: storedDzdNumber(checkout.amount),
    currency: 'DZD',
    line_items:
      checkout.lineItems?.map((i) => ({
        product_id: i.productId ?? null,
        name: i.name,
        quantity: i.quantity,
        unit_price: storedDzdNumber(i.unitPrice),
        amount: storedDzdNumber(i.quantity * i.unitPrice),
      })) ?? null,
    reference: checkout.reference,
    metadata: link.metadata,
    customer: {
      name: checkout.customerName,
      phone: checkout.customerPhone,
      email: checkout.customerEmail,
    },
    success_url: checkout.successUrl,
    cancel_url: checkout.cancelUrl,
    language: link.language,
    expires_at: iso(checkout.expiresAt),
    payment_id: checkout.paymentId,
    created_at: iso(checkout.createdAt),
    completed_at: isoOrNull(checkout.completedAt),
  }
}
