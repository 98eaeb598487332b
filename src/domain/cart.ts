/**
 * A cart: a link's (or a checkout's) product lines, each a quantity the merchant set or a range
 * the customer chooses in. The rules that need no database live here (a product named twice, a
 * quantity outside its range); the products themselves are read by the caller, which hands their
 * prices in. Every amount is integer centimes.
 */
import type { LinkLineItem, SoldLineItem } from './order.js'
import type { FieldProblems } from './problems.js'

/** The most product lines a cart holds (product.md). */
export const MAX_CART_LINES = 20
/** The most of one product a cart line may hold, as a checkout's line. */
export const MAX_CART_QUANTITY = 999

/** The product facts a cart is priced and checked with. */
export type CartProduct = {
  id: string
  name: string
  sku: string | null
  price: number
  active: boolean
  /** Units left for sale: stock − held_count, or null when the stock is unlimited. */
  available: number | null
}

/**
 * The problems of a cart's lines, by the API's path (`line_items[2].quantity`): a product named
 * twice, a fixed line of no unit, a range upside down or not holding the quantity.
 */
export function cartLineProblems(lines: readonly LinkLineItem[], at = 'line_items'): FieldProblems {
  const problems: FieldProblems = {}
  const seen = new Set<string>()
  lines.forEach((line, i) => {
    const path = `${at}[${i}]`
    if (seen.has(line.productId)) problems[`${path}.product_id`] = { code: 'duplicate_product' }
    seen.add(line.productId)
    const range = line.adjustable
    if (!range) {
      if (line.quantity < 1)
        problems[`${path}.quantity`] = { code: 'too_small', params: { min: 1 } }
      return
    }
    if (range.max < range.min) {
      problems[`${path}.adjustable_quantity.max`] = { code: 'max_below_min' }
      return
    }
    if (line.quantity < range.min || line.quantity > range.max)
      problems[`${path}.quantity`] = {
        code: 'quantity_out_of_range',
        params: { min: range.min, max: range.max },
      }
  })
  return problems
}

/**
 * The problems of the products a cart names, by the same paths: unknown (never or no longer in
 * the catalogue) or archived.
 */
export function cartProductProblems(
  lines: readonly LinkLineItem[],
  products: ReadonlyMap<string, Pick<CartProduct, 'active'>>,
  at = 'line_items',
): FieldProblems {
  const problems: FieldProblems = {}
  lines.forEach((line, i) => {
    const product = products.get(line.productId)
    if (!product) problems[`${at}[${i}].product_id`] = { code: 'unknown_product' }
    else if (!product.active) problems[`${at}[${i}].product_id`] = { code: 'product_archived' }
  })
  return problems
}

/** Σ price × quantity of the lines, at the prices given (a product not given counts 0). */
export function cartTotal(
  lines: readonly Pick<LinkLineItem, 'productId' | 'quantity'>[],
  prices: ReadonlyMap<string, Pick<CartProduct, 'price'>>,
): number {
  return lines.reduce((sum, l) => sum + (prices.get(l.productId)?.price ?? 0) * l.quantity, 0)
}

/** A sold cart's subtotal: Σ unit price × quantity of its lines. */
export function soldTotal(lines: readonly SoldLineItem[]): number {
  return lines.reduce((sum, l) => sum + l.unitPrice * l.quantity, 0)
}

/** The form field a line's quantity is chosen with (product.md): `qty_<product_id>`. */
export const quantityField = (productId: string) => `qty_${productId}`

/**
 * The quantity a customer asked for a line, from a form or a query: the line's own when it is
 * fixed or nothing (or nothing readable) was sent; a whole number otherwise (null: not one).
 */
export function askedQuantity(line: LinkLineItem, sent: unknown): number | null {
  if (!line.adjustable) return line.quantity
  if (typeof sent !== 'string' || sent.trim() === '') return line.quantity
  const text = sent.trim()
  if (!/^\d{1,6}$/.test(text)) return null
  return Number(text)
}

/** The lines sold, in the link's order, with the products' names and prices of this moment. */
export function soldLines(
  lines: readonly { productId: string; quantity: number }[],
  products: ReadonlyMap<string, CartProduct>,
): SoldLineItem[] {
  const out: SoldLineItem[] = []
  for (const line of lines) {
    const p = products.get(line.productId)
    // A line the customer set to 0 is not sold; an unknown product was refused before.
    if (!p || line.quantity === 0) continue
    out.push({
      productId: p.id,
      name: p.name,
      sku: p.sku,
      quantity: line.quantity,
      unitPrice: p.price,
    })
  }
  return out
}

/** "2 × Tapis (TAP-1); 1 × Coussin": a payment's lines on one line (the CSV export). */
export function linesText(lines: readonly SoldLineItem[]): string {
  return lines.map((l) => `${l.quantity} × ${l.name}${l.sku ? ` (${l.sku})` : ''}`).join('; ')
}
