/**
 * `/api/v1/products`: list, create, read, change and delete products. A product sold once is never
 * deleted: DELETE removes only one never sold, and answers 409 `product_sold` otherwise (archive it
 * with `active: false`). The image is uploaded in the dashboard; `image_url` only reads it.
 */
import type { Context } from 'hono'
import { Hono } from 'hono'
import type { Product } from '../../../db/schema.js'
import { deleteProductIfUnsold, getProduct, listProducts } from '../../data/products.js'
import type { AppEnv } from '../../deps.js'
import { auditProductDeleted, auditProductResult } from '../../products/audit.js'
import {
  createProductFromBody,
  type ProductResult,
  updateProductFromBody,
} from '../../products/service.js'
import { jsonBodyLimit, readJsonBody } from '../body.js'
import { apiError, invalidFields } from '../errors.js'
import { productFieldMessages } from '../problem-messages.js'
import { parseQuery } from '../query.js'
import { limitLinkWrites } from '../rate-limit.js'
import { toProductObject } from './objects.js'
import { listProductsQuery } from './schemas.js'

export const productApiRoutes = new Hono<AppEnv>()

const productJson = (c: Context<AppEnv>, product: Product) =>
  toProductObject(product, { publicUrl: c.get('config').publicUrl })

const noSuchProduct = (c: Context<AppEnv>) =>
  apiError(c, 404, 'not_found', 'No product has this id.')

/** Answers a create or update result: the product, or the error that explains why not. */
function answer(c: Context<AppEnv>, result: ProductResult, created: boolean) {
  if (result.ok) {
    if (created) {
      const base = c.get('config').publicUrl.replace(/\/+$/, '')
      c.header('Location', `${base}/api/v1/products/${encodeURIComponent(result.product.id)}`)
    }
    return c.json(productJson(c, result.product), created ? 201 : 200)
  }
  if (result.kind === 'invalid')
    return invalidFields(c, 'invalid_body', productFieldMessages(result.problems))
  if (result.kind === 'sku_taken')
    return apiError(c, 409, 'sku_in_use', 'Another product has this SKU.', {
      sku: 'sku is already the SKU of another product (whatever its case)',
    })
  return noSuchProduct(c)
}

productApiRoutes.get('/products', async (c) => {
  const query = parseQuery(c, listProductsQuery)
  if (!query.ok) return invalidFields(c, 'invalid_query', query.fields)
  const { limit, cursor, active, q } = query.value
  const page = await listProducts(c.get('db'), {
    ...(limit !== undefined ? { limit } : {}),
    ...(cursor ? { cursor } : {}),
    ...(active !== undefined ? { active } : {}),
    ...(q !== undefined ? { search: q } : {}),
  })
  return c.json({
    data: page.items.map((product) => productJson(c, product)),
    has_more: page.nextCursor !== null,
    next_cursor: page.nextCursor,
  })
})

productApiRoutes.post('/products', limitLinkWrites(), jsonBodyLimit(), async (c) => {
  const body = await readJsonBody(c)
  if (!body.ok) return body.response
  const result = await createProductFromBody(c.var, body.body)
  await auditProductResult(c, result, body.body)
  return answer(c, result, true)
})

productApiRoutes.get('/products/:id', async (c) => {
  const product = await getProduct(c.get('db'), c.req.param('id'))
  return product ? c.json(productJson(c, product)) : noSuchProduct(c)
})

productApiRoutes.patch('/products/:id', limitLinkWrites(), jsonBodyLimit(), async (c) => {
  const body = await readJsonBody(c)
  if (!body.ok) return body.response
  const result = await updateProductFromBody(c.var, c.req.param('id'), body.body)
  await auditProductResult(c, result, body.body)
  return answer(c, result, false)
})

productApiRoutes.delete('/products/:id', limitLinkWrites(), async (c) => {
  const product = await getProduct(c.get('db'), c.req.param('id'))
  if (!product) return noSuchProduct(c)
  // One conditional DELETE: a sale recorded meanwhile keeps the product.
  if (await deleteProductIfUnsold(c.get('db'), product.id)) {
    await auditProductDeleted(c, product)
    return c.body(null, 204)
  }
  return apiError(
    c,
    409,
    'product_sold',
    'This product has been sold and is never deleted; archive it with PATCH {"active": false}.',
  )
})
