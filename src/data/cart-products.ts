/**
 * The products a cart names, read in one query: their names, prices, whether they are on sale
 * and the units left (stock − held_count; null when the stock is unlimited). What the page shows
 * and what a payment is priced with; the INSERT that starts the payment checks the same facts
 * again in its WHERE (payment-reserve.ts), so a read here is never trusted to hold.
 */
import { inArray, sql } from 'drizzle-orm'
import { products } from '../../db/schema.js'
import type { CartProduct } from '../domain/cart.js'
import type { Db } from './db.js'
import { col } from './sql.js'

/** A cart product as a page shows it: with its image's hash, when it has one. */
export type ShownCartProduct = CartProduct & { imageHash: string | null; imageType: string | null }

/** The products of these ids, by id (an id no product has is left out). */
export async function cartProducts(
  db: Db,
  ids: readonly string[],
): Promise<Map<string, ShownCartProduct>> {
  const out = new Map<string, ShownCartProduct>()
  if (ids.length === 0) return out
  const rows = await db
    .select({
      id: products.id,
      name: products.name,
      sku: products.sku,
      price: products.price,
      active: products.active,
      imageHash: products.imageHash,
      imageType: products.imageType,
      available: sql<
        number | null
      >`CASE WHEN ${col(products.stock)} IS NULL THEN NULL ELSE max(0, ${col(products.stock)} - ${col(products.heldCount)}) END`,
    })
    .from(products)
    .where(inArray(products.id, [...new Set(ids)]))
  for (const row of rows) out.set(row.id, { ...row, active: Boolean(row.active) })
  return out
}
