/**
 * The checkout page's order summary (views/checkout-summary.tsx), priced as the payment will be
 * (src/payments/order.ts) from the link and the form or the query's prefill; and the terms of a
 * promo code asked by the page's script (`GET /l/:slug/promo?code=`).
 */
import type { Link } from '../../db/schema.js'
import type { CheckoutSummary } from '../../views/checkout-summary.js'
import type { AppDeps } from '../deps.js'
import { MIN_AMOUNT } from '../domain/amount-bounds.js'
import { typedAmountText } from '../domain/checkout-input.js'
import { orderAmount } from '../domain/order.js'
import { parseDzd } from '../lib/money.js'
import { priceOrder } from '../payments/order.js'
import { linkFeeHundredths, lookUpPromoCode, typedPromoCode } from '../payments/order-promo.js'

type Deps = Pick<AppDeps, 'db' | 'clock'>

/** Whether a link's page shows the summary: it takes promo codes or passes its fee on. */
export function hasSummary(link: Link): boolean {
  return link.allowPromoCodes || link.customerFee
}

/**
 * The summary of the order the form (or the prefill) describes, or undefined for a link without
 * one. A refused code shows no discount (its error is said beside the field by the caller).
 */
export async function checkoutSummary(
  deps: Deps,
  link: Link,
  form: Record<string, unknown>,
): Promise<CheckoutSummary | undefined> {
  if (!hasSummary(link)) return undefined
  const typedAmount =
    typeof form.amount === 'string' ? parseDzd(typedAmountText(form.amount.slice(0, 40))) : null
  // The open amount as typed stands in for the customer's details: only the amount is priced.
  const input =
    link.amount === null && typedAmount !== null
      ? { name: '', phone: '', email: '', ref: null, amount: typedAmount }
      : null
  let priced = await priceOrder(deps, link, form, input)
  if (!priced.ok) priced = await priceOrder(deps, link, { ...form, promo_code: '' }, input)
  const feeHundredths = await linkFeeHundredths(deps, link)
  const order = priced.ok ? priced.order : null
  const subtotal = order && order.subtotal > 0 ? order.subtotal : null
  let applied: CheckoutSummary['applied'] = null
  if (order?.promoCode) {
    const found = await lookUpPromoCode(deps, link, order.promoCode, null)
    if (found.ok && found.promo) {
      const { code, percentOff, amountOff, minAmount } = found.promo
      applied = { code, percentOff, amountOff, minAmount }
    }
  }
  return {
    subtotal,
    discount: subtotal === null ? 0 : (order?.discount ?? 0),
    fee: subtotal === null ? 0 : (order?.fee ?? 0),
    total: subtotal === null || !order ? null : orderAmount(order),
    feeHundredths,
    promo: link.allowPromoCodes,
    typed: typedPromoCode(form).slice(0, 40),
    applied,
    termsUrl: `/l/${link.slug}/promo`,
    cardMin: MIN_AMOUNT,
  }
}
