/**
 * Direct interface: the product catalog, `GET services/get_products/`. The gateway reads a JSON
 * body on this GET, which WHATWG fetch cannot send: with the client option `getWithBody` (on Node,
 * src/runtime/node/get-with-body.ts) the body is sent as documented; without it the same fields go in the
 * query string.
 */
import * as z from 'zod'
import { type ClientContext, encryptedSk, sendSite } from '../core/context.js'
import { normalise, normaliseList } from '../core/normalise.js'
import { objectBody } from '../core/response.js'
import type { CallOptions } from '../core/transport.js'
import { validate } from '../core/validate.js'

export const productsQuerySchema = z.strictObject({
  search: z.string({ error: 'must be a string' }).optional(),
})

/** Filter of the product catalog (by name). */
export type ProductsQuery = z.input<typeof productsQuerySchema>

/** A catalog product; `price` is decimal text. */
export interface Product {
  name?: string
  price?: string
  [key: string]: unknown
}

/** The 200 answer of `services/get_products/`. */
export interface ProductList {
  status?: string
  count?: number
  products: Product[]
  [key: string]: unknown
}

export interface DirectProducts {
  /** Lists available products, all of them when `search` is absent. */
  list(query?: ProductsQuery, options?: CallOptions): Promise<ProductList>
}

const PATH = 'services/get_products/'

/** The `products` resource of the direct interface. */
export function directProducts(ctx: ClientContext): DirectProducts {
  return {
    async list(query = {}, options) {
      const { search } = validate(productsQuerySchema, query)
      const fields = { encrypted_sk: encryptedSk(ctx), search }
      const res = ctx.getWithBody
        ? await sendSite(ctx, 'GET', PATH, {
            body: search === undefined ? { encrypted_sk: fields.encrypted_sk } : fields,
            idempotent: true,
            options,
          })
        : await sendSite(ctx, 'GET', PATH, { query: fields, idempotent: true, options })
      const body = normalise(objectBody(res, PATH), { status: 'string', count: 'integer' })
      return {
        ...body,
        products: normaliseList(body.products, { name: 'string', price: 'string' }),
      } as ProductList
    },
  }
}
