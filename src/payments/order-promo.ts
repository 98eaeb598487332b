/**
 * Steps 3 and 4 of pricing an order (src/payments/order.ts): the promo code's discount on the
 * subtotal, and the fee the customer pays on what remains. The code is read whatever its case and
 * refused, naming the `promo_code` field, when the code is unknown,
 * switched off, expired, under its minimum or used up. Its redemption is only held by the INSERT
 * that starts the payment (src/data/payment-reserve.ts): what is checked here can change before
 * then, and that INSERT refuses a code used up meanwhile (`promo_unavailable`).
 */
import type { Link, PromoCode } from '../../db/schema.js'
import { findPromoCode } from '../data/promo-codes.js'
import { getSetting } from '../data/settings.js'
import type { AppDeps } from '../deps.js'
import { MIN_AMOUNT } from '../domain/amount-bounds.js'
import {
  CUSTOMER_FEE_PERCENT_KEY,
  customerFee,
  storedFeeHundredths,
} from '../domain/customer-fee.js'
import { PROMO_CODE_PATTERN } from '../domain/promo-code.js'
import type { MessageKey } from '../i18n/index.js'

type Deps = Pick<AppDeps, 'db' | 'clock'>

/** The terms of a code that applies: what the page shows, and what its script computes with. */
export type PromoTerms = Pick<PromoCode, 'id' | 'code' | 'percentOff' | 'amountOff' | 'minAmount'>

export type PromoError = { key: MessageKey; params?: Record<string, number | string> }

export type PromoLookup = { ok: true; promo: PromoTerms | null } | { ok: false; error: PromoError }

/** The `promo_code` form field as typed (a string, trimmed), or '' when none. */
export function typedPromoCode(form: Record<string, unknown>): string {
  const value = form.promo_code
  return typeof value === 'string' ? value.trim().slice(0, 100) : ''
}

/**
 * The code's terms if it applies to a subtotal on this link now, or the reason it does not.
 * `subtotal` null checks everything but the code's minimum (the page's script checks it).
 */
export async function lookUpPromoCode(
  deps: Deps,
  link: Pick<Link, 'allowPromoCodes'>,
  typed: string,
  subtotal: number | null,
): Promise<PromoLookup> {
  if (typed === '') return { ok: true, promo: null }
  // A link that takes no codes shows no field for one: a code posted anyway is not looked at.
  if (!link.allowPromoCodes) return { ok: true, promo: null }
  if (!PROMO_CODE_PATTERN.test(typed)) return { ok: false, error: { key: 'errPromoText' } }
  const code = await findPromoCode(deps.db, typed)
  if (!code) return { ok: false, error: { key: 'errPromoUnknown' } }
  if (!code.active) return { ok: false, error: { key: 'errPromoInactive' } }
  if (code.expiresAt !== null && code.expiresAt <= deps.clock())
    return { ok: false, error: { key: 'errPromoExpired' } }
  if (code.maxRedemptions !== null && code.redeemedCount + code.heldCount >= code.maxRedemptions)
    return { ok: false, error: { key: 'errPromoUsedUp' } }
  if (subtotal !== null && code.minAmount !== null && subtotal < code.minAmount)
    return { ok: false, error: { key: 'errPromoMin', params: { min: code.minAmount } } }
  const { id, percentOff, amountOff, minAmount } = code
  return { ok: true, promo: { id, code: code.code, percentOff, amountOff, minAmount } }
}

/**
 * The discount on `subtotal`: a percent of it rounded down to the centime, or the amount off;
 * never so much that less than the card's minimum payment (MIN_AMOUNT) is left to pay. A code
 * worth more than that (100 %, or an amount off above the order) leaves the minimum to pay rather
 * than being refused: the customer still gets all the discount a card payment can give.
 * views/order-total-script.ts computes the same on the page.
 */
export function promoDiscount(
  promo: Pick<PromoTerms, 'percentOff' | 'amountOff'>,
  subtotal: number,
): number {
  const wanted =
    promo.percentOff !== null
      ? Math.floor((subtotal * promo.percentOff) / 100)
      : (promo.amountOff ?? 0)
  return Math.max(0, Math.min(wanted, subtotal - MIN_AMOUNT))
}

/** The customer's fee rate on this link, in hundredths of a percent: 0 unless it passes one on. */
export async function linkFeeHundredths(
  deps: Pick<Deps, 'db'>,
  link: Pick<Link, 'customerFee'>,
): Promise<number> {
  if (!link.customerFee) return 0
  return storedFeeHundredths(await getSetting(deps.db, CUSTOMER_FEE_PERCENT_KEY))
}

/** Step 3: the discount of the posted `promo_code` on the subtotal (0 with no code). */
export async function priceDiscount(
  deps: Deps,
  link: Pick<Link, 'allowPromoCodes'>,
  form: Record<string, unknown>,
  subtotal: number,
): Promise<
  | { ok: true; discount: number; promoCode: string | null; promoCodeId: string | null }
  | { ok: false; error: PromoError }
> {
  const found = await lookUpPromoCode(deps, link, typedPromoCode(form), subtotal)
  if (!found.ok) return found
  if (!found.promo) return { ok: true, discount: 0, promoCode: null, promoCodeId: null }
  return {
    ok: true,
    discount: promoDiscount(found.promo, subtotal),
    promoCode: found.promo.code,
    promoCodeId: found.promo.id,
  }
}

/** Step 4: the customer's fee on the subtotal less the discount (0 unless the link passes it on). */
export async function priceFee(
  deps: Pick<Deps, 'db'>,
  link: Pick<Link, 'customerFee'>,
  base: number,
): Promise<number> {
  return customerFee(base, await linkFeeHundredths(deps, link))
}
