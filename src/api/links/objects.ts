/**
 * The link object of the merchant API: the mapping from a link row. Its zod schemas, from which
 * the OpenAPI document is made, are in object-schemas.ts (re-exported here). Amounts go back to
 * DZD numbers, times to ISO 8601.
 */
import type { Link } from '../../../db/schema.js'
import { linkBalance, linkStatus } from '../../domain/link-status.js'
import { linkUrls } from '../../domain/public-urls.js'
import { storedDzdNumber } from '../../domain/stored-amount.js'
import { isShowableTime } from '../../domain/stored-time.js'
import type { LinkObject } from './object-schemas.js'

export { type LinkObject, linkList, linkObject } from './object-schemas.js'

const iso = (ms: number) => new Date(ms).toISOString()
// A time no Date can hold (written by other means) reads as none, like an unset one.
const isoOrNull = (ms: number | null) => (isShowableTime(ms) ? iso(ms) : null)
const dzdOrNull = (c: number | null) => (c === null ? null : storedDzdNumber(c))

/** A link row, with its paid aggregates, as the API's link object. */
export function toLinkObject(
  link: Link,
  stats: { paidCount: number; paidTotal: number },
  opts: { publicUrl: string; now: number },
): LinkObject {
  return {
    id: link.id,
    slug: link.slug,
    ...linkUrls(opts.publicUrl, link.slug),
    title: link.title,
    description: link.description,
    amount: dzdOrNull(link.amount),
    amount_min: dzdOrNull(link.amountMin),
    amount_max: dzdOrNull(link.amountMax),
    invoice_id: link.invoiceId,
    invoice_items:
      link.invoiceItems?.map((i) => ({
        description: i.description,
        quantity: i.quantity,
        unit_price: storedDzdNumber(i.unitPrice),
      })) ?? null,
    line_items:
      link.lineItems?.map((l) => ({
        product_id: l.productId,
        quantity: l.quantity,
        adjustable_quantity: l.adjustable,
      })) ?? null,
    max_payments: link.maxPayments,
    expires_at: isoOrNull(link.expiresAt),
    language: link.language,
    memo: link.memo,
    success_message: link.successMessage,
    success_url: link.successUrl,
    active: link.active,
    inactive_message: link.inactiveMessage,
    allow_promo_codes: link.allowPromoCodes,
    customer_fee: link.customerFee,
    metadata: link.metadata,
    allow_partial:
      link.partialMinAmount === null
        ? null
        : { min_amount: storedDzdNumber(link.partialMinAmount) },
    custom_fields: link.customFields ?? [],
    status: linkStatus(link, stats, opts.now),
    paid_count: stats.paidCount,
    paid_total: storedDzdNumber(stats.paidTotal),
    amount_due: dzdOrNull(link.amount),
    balance: dzdOrNull(linkBalance(link, stats)),
    created_at: iso(link.createdAt),
    updated_at: iso(link.updatedAt),
  }
}
