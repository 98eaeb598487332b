/**
 * `GET /products/images/:hash.:ext`: a product's image at an address named by its SHA-256, so it
 * is cached for a year and a new image has a new address. Served as the logo is: with its checked
 * type, `nosniff` and a policy that lets nothing in it run, whatever its bytes.
 */
import { Hono } from 'hono'
import { getProductImage } from '../data/products.js'
import type { AppEnv } from '../deps.js'
import { LOGO_TYPES, type LogoType } from '../domain/brand.js'
import { notFoundPage } from './error-pages.js'

export const productImageRoutes = new Hono<AppEnv>()

productImageRoutes.get('/products/images/:file', async (c) => {
  const m = /^([0-9a-f]{64})\.(png|jpg|webp)$/.exec(c.req.param('file'))
  const found = m ? await getProductImage(c.get('db'), m[1] as string) : null
  if (!m || !found || LOGO_TYPES[found.contentType as LogoType] !== m[2]) return notFoundPage(c)
  c.header('Content-Type', found.contentType)
  c.header('Cache-Control', 'public, max-age=31536000, immutable')
  c.header('X-Content-Type-Options', 'nosniff')
  c.header('Content-Security-Policy', "default-src 'none'")
  c.header('Cross-Origin-Resource-Policy', 'same-origin')
  return c.body(found.bytes as Uint8Array<ArrayBuffer>, 200)
})
