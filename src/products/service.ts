/**
 * Creating and changing products, shared by the merchant API and the dashboard: the body is read
 * by its schema (src/api/products/schemas.ts), then written in one statement.
 */
import type { Product } from '../../db/schema.js'
import { createProductBody, parseProductBody, updateProductBody } from '../api/products/schemas.js'
import type { Db } from '../data/db.js'
import { createProduct, getProduct, type ProductChanges, updateProduct } from '../data/products.js'
import type { FieldProblems } from '../domain/problems.js'

export type ProductResult =
  // `before`: the stored product an update changed (the audit log tells an archive from an edit).
  | { ok: true; product: Product; before?: Product }
  | { ok: false; kind: 'invalid'; problems: FieldProblems }
  | { ok: false; kind: 'not_found' }
  | { ok: false; kind: 'sku_taken' }

type Deps = { db: Db; clock: () => number }

/** Validates a create-product body and stores the product. */
export async function createProductFromBody(deps: Deps, body: unknown): Promise<ProductResult> {
  const parsed = parseProductBody(createProductBody, body)
  if (!parsed.ok) return { ok: false, kind: 'invalid', problems: parsed.problems }
  const v = parsed.value
  const written = await createProduct(
    deps.db,
    {
      name: v.name,
      description: v.description ?? null,
      price: v.price,
      stock: v.stock ?? null,
      sku: v.sku ?? null,
      active: v.active ?? true,
    },
    deps.clock(),
  )
  return written.ok ? { ok: true, product: written.product } : written
}

/** Validates an update body and applies the fields it names. */
export async function updateProductFromBody(
  deps: Deps,
  id: string,
  body: unknown,
): Promise<ProductResult> {
  const parsed = parseProductBody(updateProductBody, body)
  if (!parsed.ok) return { ok: false, kind: 'invalid', problems: parsed.problems }
  const before = await getProduct(deps.db, id)
  if (!before) return { ok: false, kind: 'not_found' }
  const changes: ProductChanges = {}
  for (const [key, value] of Object.entries(parsed.value))
    if (value !== undefined) (changes as Record<string, unknown>)[key] = value
  const written = await updateProduct(deps.db, id, changes, deps.clock())
  return written.ok ? { ok: true, product: written.product, before } : written
}
