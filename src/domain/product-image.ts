/** Where a product's image is served: named by its SHA-256, so it is cached for a year. */
import { LOGO_TYPES, type LogoType } from './brand.js'

/** The public path of a product image, or null when the product has none. */
export function productImagePath(hash: string | null, type: string | null): string | null {
  if (!hash || !type) return null
  return `/products/images/${hash}.${LOGO_TYPES[type as LogoType] ?? 'png'}`
}
