/** Identifiers. Public ones (slugs, receipt ids) are random enough that guessing one is hopeless. */
import { BASE62, randomBase62 } from '../lib/bytes.js'

/** A link id: `lnk_` and 16 base62 characters. */
export function newLinkId(): string {
  return `lnk_${randomBase62(16)}`
}

/** A product id: `prod_` and 16 base62 characters. */
export function newProductId(): string {
  return `prod_${randomBase62(16)}`
}

/** A promo code's id: `promo_` and 16 base62 characters. */
export function newPromoCodeId(): string {
  return `promo_${randomBase62(16)}`
}

/** A payment id: `pay_` and 16 base62 characters. */
export function newPaymentId(): string {
  return `pay_${randomBase62(16)}`
}

/** `value` in base62, `width` characters (ASCII order of base62 digits is their numeric order). */
function fixedBase62(value: number, width: number): string {
  let out = ''
  for (let v = Math.max(0, Math.trunc(value)); out.length < width; v = Math.floor(v / 62)) {
    out = BASE62[v % 62] + out
  }
  return out
}

/**
 * A webhook event id: `evt_`, the time in 8 base62 characters, 8 random ones. Ids sort by time, so
 * new rows go to the end of the id index instead of a random page of it: a burst of deliveries
 * written together touches one index page, not one each.
 */
export function newWebhookEventId(now: number = Date.now()): string {
  return `evt_${fixedBase62(now, 8)}${randomBase62(8)}`
}

/** The least webhook event id that can be given at time `at`: bounds a search by time on the ids. */
export function webhookEventIdFloor(at: number): string {
  return `evt_${fixedBase62(Math.max(0, at), 8)}`
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

/** An API key's id (not the key): `key_` and 16 base62 characters. */
export function newApiKeyId(): string {
  return `key_${randomBase62(16)}`
}
