/** Identifiers. Public ones (slugs, receipt ids) are random enough that guessing one is hopeless. */
import { randomBase62 } from '../client/core/bytes.js'

/** A link id: `lnk_` and 16 base62 characters. */
export function newLinkId(): string {
  return `lnk_${randomBase62(16)}`
}

/** A payment id: `pay_` and 16 base62 characters. */
export function newPaymentId(): string {
  return `pay_${randomBase62(16)}`
}

/** A webhook event id: `evt_` and 16 base62 characters. */
export function newWebhookEventId(): string {
  return `evt_${randomBase62(16)}`
}

/** The length of a link slug: 12 base62 characters, about 71 bits (the rule asks for at least 10). */
export const SLUG_LENGTH = 12

/** A link's public slug (`/l/:slug`). */
export function newSlug(): string {
  return randomBase62(SLUG_LENGTH)
}

/** A receipt id (`/r/:receiptId`): 22 base62 characters, about 131 bits. */
export function newReceiptId(): string {
  return randomBase62(22)
}

const SLUG = /^[0-9A-Za-z]{10,64}$/
const RECEIPT_ID = /^[0-9A-Za-z]{22}$/

/** Whether a path segment can be a slug at all (lets routes answer 404 without a query). */
export function isSlugShaped(value: string): boolean {
  return SLUG.test(value)
}

/** Whether a path segment can be a receipt id at all. */
export function isReceiptIdShaped(value: string): boolean {
  return RECEIPT_ID.test(value)
}
