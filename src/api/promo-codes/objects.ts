/**
 * The promo code object of the merchant API: the mapping from a promo code row. Its zod schemas are
 * in object-schemas.ts (re-exported here). Amounts go back to DZD, times to ISO 8601.
 */
import type { PromoCode } from '../../../db/schema.js'
import { storedDzdNumber } from '../../domain/stored-amount.js'
import type { PromoCodeObject } from './object-schemas.js'

export { type PromoCodeObject, promoCodeList, promoCodeObject } from './object-schemas.js'

const iso = (ms: number) => new Date(ms).toISOString()

/** A promo code row as the API's promo code object. */
export function toPromoCodeObject(row: PromoCode): PromoCodeObject {
  return {
    id: row.id,
    code: row.code,
    percent_off: row.percentOff,
    amount_off: row.amountOff === null ? null : storedDzdNumber(row.amountOff),
    min_amount: row.minAmount === null ? null : storedDzdNumber(row.minAmount),
    max_redemptions: row.maxRedemptions,
    expires_at: row.expiresAt === null ? null : iso(row.expiresAt),
    active: row.active,
    times_redeemed: row.redeemedCount,
    created_at: iso(row.createdAt),
    updated_at: iso(row.updatedAt),
  }
}
