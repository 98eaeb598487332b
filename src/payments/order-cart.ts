/**
 * Step 1 of pricing a cart link's order (order.ts): the quantities the customer chose (the
 * form's `qty_<product_id>`, each within its line's min and max; a fixed line's own), the
 * products read now, at the moment of payment, and the lines sold with their names and prices
 * of this moment. The subtotal is Σ unit price × quantity. What is left in stock is told here
 * for the page's sake; the INSERT that starts the payment holds it, and checks these same prices
 * (src/data/payment-reserve.ts), so a price changed meanwhile is refused there, never paid.
 */
import type { Link } from '../../db/schema.js'
import { cartProducts } from '../data/cart-products.js'
import type { AppDeps } from '../deps.js'
import { MAX_AMOUNT, MIN_AMOUNT } from '../domain/amount-bounds.js'
import { askedQuantity, quantityField, soldLines, soldTotal } from '../domain/cart.js'
import type { SoldLineItem } from '../domain/order.js'
import type { MessageKey } from '../i18n/index.js'

/** Refusals by form field, as order.ts's OrderErrors (written here: order.ts imports this file). */
type OrderErrors = Record<string, { key: MessageKey; params?: Record<string, number | string> }>

/** The form field that carries the unit price a line showed (centimes), to tell a change. */
export const shownPriceField = (productId: string) => `price_${productId}`

/**
 * The cart's part of the order, or null for a link that sells no products. Refusals are added to
 * `errors` by the field each names; the subtotal is then of no use.
 */
export async function priceCart(
  deps: Pick<AppDeps, 'db'>,
  link: Pick<Link, 'lineItems'>,
  form: Record<string, unknown>,
  errors: OrderErrors,
): Promise<{ subtotal: number; lineItems: SoldLineItem[] } | null> {
  const lines = link.lineItems
  if (!lines || lines.length === 0) return null
  const found = await cartProducts(
    deps.db,
    lines.map((l) => l.productId),
  )
  const chosen: { productId: string; quantity: number }[] = []
  for (const line of lines) {
    const field = quantityField(line.productId)
    const quantity = askedQuantity(line, form[field])
    if (quantity === null) {
      errors[field] = { key: 'cartQtyWhole' }
      continue
    }
    const range = line.adjustable
    if (range && (quantity < range.min || quantity > range.max)) {
      // Counts go as text: a number among the params is written as an amount (OrderErrors).
      errors[field] = { key: 'cartQtyRange', params: { min: `${range.min}`, max: `${range.max}` } }
      continue
    }
    const product = found.get(line.productId)
    const left = !product?.active ? 0 : product.available
    if (quantity > 0 && left !== null && left < quantity) {
      errors[field] =
        left === 0 ? { key: 'cartSoldOut' } : { key: 'cartOnlyLeft', params: { count: `${left}` } }
      continue
    }
    // The page said what one cost; a price changed since is told, and the page shows the new one.
    const shown = form[shownPriceField(line.productId)]
    if (product && typeof shown === 'string' && shown !== '' && shown !== `${product.price}`) {
      errors[field] = { key: 'cartPriceChanged', params: { price: product.price } }
      continue
    }
    chosen.push({ productId: line.productId, quantity })
  }
  const lineItems = soldLines(chosen, found)
  const subtotal = soldTotal(lineItems)
  if (Object.keys(errors).length === 0) {
    // Named by the first quantity the customer may change, else the amount (the whole order).
    const adjustable = lines.find((l) => l.adjustable)
    const field = adjustable ? quantityField(adjustable.productId) : 'amount'
    if (subtotal < MIN_AMOUNT)
      errors[field] = { key: 'cartTotalTooLow', params: { min: MIN_AMOUNT } }
    if (subtotal > MAX_AMOUNT)
      errors[field] = { key: 'cartTotalTooHigh', params: { max: MAX_AMOUNT } }
  }
  return { subtotal, lineItems }
}
