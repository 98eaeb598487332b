/**
 * The product object of the merchant API: the mapping from a product row. Its zod schemas are in
 * object-schemas.ts (re-exported here). The price goes back to DZD, times to ISO 8601.
 */
import type { Product } from '../../../db/schema.js'
import { productImagePath } from '../../domain/product-image.js'
import { storedDzdNumber } from '../../domain/stored-amount.js'
import type { ProductObject } from './object-schemas.js'

export { type ProductObject, productList, productObject } from './object-schemas.js'

const iso = (ms: number) => new Date(ms).toISOString()

/** A product row as the API's product object; `image_url` absolute under `publicUrl`. */
export function toProductObject(product: Product, opts: { publicUrl: string }): ProductObject {
  const path = productImagePath(product.imageHash, product.imageType)
  return {
    id: product.id,
    name: product.name,
    description: product.description,
    price: storedDzdNumber(product.price),
    currency: 'DZD',
    stock: product.stock,
    sku: product.sku,
    active: product.active,
    image_url: path ? `${opts.publicUrl.replace(/\/+$/, '')}${path}` : null,
    created_at: iso(product.createdAt),
    updated_at: iso(product.updatedAt),
  }
}
