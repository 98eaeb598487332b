/**
 * Pricing the customer's order at the moment of payment, on the server, from the link and the
 * posted form: the subtotal (the cart's lines at the products' stored prices, a deposit's chosen
 * amount, or the link's or typed amount), the answers to the link's custom fields, the promo
 * code's discount and the customer's fee. The browser's figures are never read: what the page
 * showed is recomputed here, and the INSERT that starts the payment holds the stock, the code's
 * redemption and the deposit's balance it needs (src/data/payment-reserve.ts).
 *
 * Each part lives in a module of its own; this file only puts them in order.
 */
import type { Link } from '../../db/schema.js'
import type { AppDeps } from '../deps.js'
import type { CheckoutInput } from '../domain/checkout-input.js'
import { readCustomFieldAnswers } from '../domain/custom-fields.js'
import type { OrderParts } from '../domain/order.js'
import type { MessageKey } from '../i18n/index.js'
import { priceCart } from './order-cart.js'
import { depositSubtotal } from './order-deposit.js'
import { priceDiscount, priceFee } from './order-promo.js'

/**
 * Refused parts of the order, by the form field each names (`qty_<id>`, `cf_<key>`, `promo_code`…).
 * A number among the params is an amount in centimes, written as the page writes amounts; a count
 * or a name goes as text.
 */
export type OrderErrors = Record<
  string,
  { key: MessageKey; params?: Record<string, number | string> }
>

export type PricedOrder = { ok: true; order: OrderParts } | { ok: false; errors: OrderErrors }

type OrderDeps = Pick<AppDeps, 'db' | 'clock'>

/** The order a valid form buys; the customer's details are already read (parseCheckoutForm). */
export async function priceOrder(
  deps: OrderDeps,
  link: Link,
  form: Record<string, unknown>,
  /** The customer's details, or null when they were refused (the order is still checked). */
  input: CheckoutInput | null,
): Promise<PricedOrder> {
  const errors: OrderErrors = {}
  // 1. The subtotal: a cart's lines, a deposit's part, else the link's amount or the typed one.
  const cart = await priceCart(deps, link, form, errors)
  // A cart is priced from its products; a deposit link's part is what the customer typed.
  const deposit = cart ? null : depositSubtotal(link, form)
  if (deposit && !deposit.ok) Object.assign(errors, deposit.errors)
  const subtotal =
    cart?.subtotal ?? (deposit?.ok ? deposit.subtotal : (link.amount ?? input?.amount ?? 0))
  // 2. The answers to the link's custom fields.
  const customFields = readCustomFieldAnswers(link.customFields, form, errors)
  // 3. The promo code's discount.
  const promo = await priceDiscount(deps, link, form, subtotal)
  if (!promo.ok) errors.promo_code = promo.error
  const discount = promo.ok ? promo.discount : 0
  // 4. The customer's fee, on what remains after the discount.
  const fee = await priceFee(deps, link, subtotal - discount)
  if (Object.keys(errors).length > 0) return { ok: false, errors }
  return {
    ok: true,
    order: {
      subtotal,
      discount,
      fee,
      promoCode: promo.ok ? promo.promoCode : null,
      promoCodeId: promo.ok ? promo.promoCodeId : null,
      lineItems: cart?.lineItems ?? null,
      customFields,
    },
  }
}
