/**
 * A cart link's lines as its page shows them: the products read now (name, picture, price, units
 * left) and the quantities the customer chose — the query's `qty_<product_id>` (a prefill) or the
 * posted form's (a refused payment shown again), else each line's own.
 */
import type { Link } from '../../db/schema.js'
import type { CheckoutCart } from '../../views/checkout-cart.js'
import { cartProducts } from '../data/cart-products.js'
import type { Db } from '../data/db.js'
import { askedQuantity, quantityField } from '../domain/cart.js'
import { productImagePath } from '../domain/product-image.js'

/** The cart of a link that sells products; undefined for every other link. */
export async function cartOfLink(
  db: Db,
  link: Pick<Link, 'lineItems'>,
  sent: Record<string, unknown>,
): Promise<CheckoutCart | undefined> {
  const lines = link.lineItems
  if (!lines || lines.length === 0) return undefined
  const found = await cartProducts(
    db,
    lines.map((l) => l.productId),
  )
  const shown = lines.map((line) => {
    const product = found.get(line.productId)
    const asked = askedQuantity(line, sent[quantityField(line.productId)])
    const range = line.adjustable
    // A quantity the line cannot take is shown as the line's own; its error says why.
    const quantity =
      asked !== null && (!range || (asked >= range.min && asked <= range.max))
        ? asked
        : line.quantity
    return {
      productId: line.productId,
      name: product?.name ?? '—',
      imageUrl: product ? productImagePath(product.imageHash, product.imageType) : null,
      unitPrice: product?.price ?? 0,
      quantity,
      range,
      left: !product?.active ? 0 : product.available,
    }
  })
  return { lines: shown, subtotal: shown.reduce((s, l) => s + l.unitPrice * l.quantity, 0) }
}
