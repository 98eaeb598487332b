/** API-key interface: the products catalog (`GET /products`). */
import * as z from 'zod'
import type { ClientContext } from '../core/context.js'
import { sendV1 } from '../core/context.js'
import type { JsonObject } from '../core/parse.js'
import { objectBody } from '../core/response.js'
import type { CallOptions } from '../core/transport.js'
import { validate } from '../core/validate.js'

export const v1ProductsQuerySchema = z.strictObject({
  category: z
    .enum(['phone', 'internet', 'game', 'bill'], {
      error: 'must be one of phone, internet, game, bill',
    })
    .optional(),
})

/** Query of `GET /products`. */
export type V1ProductsQuery = z.input<typeof v1ProductsQuerySchema>
/** ProductsCatalog: operators, internet packages, games and bills; fields not described. */
export type V1ProductsCatalog = JsonObject

export interface V1Products {
  /** `GET /products`, optionally for one category. */
  list(query?: V1ProductsQuery, options?: CallOptions): Promise<V1ProductsCatalog>
}

/** The `products` resource of the API-key interface. */
export function v1Products(ctx: ClientContext): V1Products {
  return {
    async list(query = {}, options) {
      const q = validate(v1ProductsQuerySchema, query)
      const res = await sendV1(ctx, 'GET', 'products', { query: q, idempotent: true, options })
      return objectBody(res, 'products')
    },
  }
}
