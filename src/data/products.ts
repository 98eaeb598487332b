/**
 * Product queries: the catalogue and its images. A product sold once (`sold_count` > 0) is never
 * deleted, only archived; its SKU is unique whatever its case (the index on `lower(sku)`).
 */
import { and, desc, eq, sql } from 'drizzle-orm'
import { type Product, productImages, products } from '../../db/schema.js'
import { newProductId } from '../domain/ids.js'
import type { Db } from './db.js'
import { afterCursor, type Page, type PageOptions, pageSize, toPage } from './paging.js'
import { col } from './sql.js'

/** The columns a merchant sets (the image has its own calls). */
export type ProductValues = {
  name: string
  description: string | null
  price: number
  stock: number | null
  sku: string | null
  active: boolean
}

export type ProductChanges = Partial<ProductValues>

/** A write's outcome: the product, none with this id, or a SKU another product has. */
export type ProductWrite =
  | { ok: true; product: Product }
  | { ok: false; kind: 'not_found' | 'sku_taken' }

/**
 * Whether an error is the SKU's unique index refusing a write. Drivers word and wrap it
 * differently (D1's error comes inside drizzle's "Failed query"), so each cause is read.
 */
function isSkuConflict(error: unknown): boolean {
  for (let e = error, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const message = String((e as Error).message ?? e)
    if (/UNIQUE constraint failed: index 'products_sku_unique'/.test(message)) return true
  }
  return false
}

/** Creates a product with a fresh id; `sku_taken` when another product has its SKU. */
export async function createProduct(
  db: Db,
  values: ProductValues,
  now: number,
): Promise<ProductWrite> {
  const [row] = await db
    .insert(products)
    .values({ ...values, id: newProductId(), createdAt: now, updatedAt: now })
    .onConflictDoNothing()
    .returning()
  // The id is random (16 base62 characters): a conflict is the SKU's.
  return row ? { ok: true, product: row } : { ok: false, kind: 'sku_taken' }
}

/** Changes the given columns of a product in one statement. */
export async function updateProduct(
  db: Db,
  id: string,
  changes: ProductChanges,
  now: number,
): Promise<ProductWrite> {
  try {
    const [row] = await db
      .update(products)
      .set({ ...changes, updatedAt: now })
      .where(eq(products.id, id))
      .returning()
    return row ? { ok: true, product: row } : { ok: false, kind: 'not_found' }
  } catch (error) {
    if (isSkuConflict(error)) return { ok: false, kind: 'sku_taken' }
    throw error
  }
}

/** A product by id. */
export async function getProduct(db: Db, id: string): Promise<Product | null> {
  const [row] = await db.select().from(products).where(eq(products.id, id)).limit(1)
  return row ?? null
}

/** The longest text a product list searches for. */
export const PRODUCT_SEARCH_MAX = 100

/**
 * Products newest first; `active` filters on the switch, `search` finds a part of the name or of
 * the SKU (case folded for Latin letters). A catalogue is small: the search reads the rows.
 */
export async function listProducts(
  db: Db,
  options: PageOptions & { active?: boolean; search?: string } = {},
): Promise<Page<Product>> {
  const limit = pageSize(options.limit)
  const term = options.search?.toLowerCase()
  const where = and(
    options.active === undefined ? undefined : eq(products.active, options.active),
    term
      ? sql`(instr(lower(${products.name}), ${term}) > 0 OR instr(lower(coalesce(${products.sku}, '')), ${term}) > 0)`
      : undefined,
    options.cursor ? afterCursor(products.createdAt, products.id, options.cursor) : undefined,
  )
  const rows = await db
    .select()
    .from(products)
    .where(where)
    .orderBy(desc(products.createdAt), desc(products.id))
    .limit(limit + 1)
    .offset(options.cursor ? 0 : Math.max(0, Math.trunc(options.offset ?? 0)))
  return toPage(rows, limit)
}

/**
 * Deletes a product only if it was never sold, in one conditional statement (a sale recorded
 * meanwhile keeps it), and its image when no other product shows it. Returns whether it was.
 */
export async function deleteProductIfUnsold(db: Db, id: string): Promise<boolean> {
  const rows = await db
    .delete(products)
    .where(and(eq(products.id, id), eq(products.soldCount, 0)))
    .returning({ imageHash: products.imageHash })
  const [row] = rows
  if (!row) return false
  if (row.imageHash) await dropImageIfUnused(db, row.imageHash)
  return true
}

/** A checked image to show with a product. */
export type NewProductImage = {
  sha256: string
  contentType: string
  bytes: Uint8Array
  width: number
  height: number
}

/**
 * Sets (or, with null, removes) a product's image: the bytes are stored first under their hash,
 * then the product points at them, then the image it showed before is removed if no product
 * shows it any more. Returns the product with its previous image's hash, or null when none.
 */
export async function setProductImage(
  db: Db,
  id: string,
  image: NewProductImage | null,
  now: number,
): Promise<{ product: Product; previous: string | null } | null> {
  const before = await getProduct(db, id)
  if (!before) return null
  if (image) {
    await db
      .insert(productImages)
      .values({ ...image, createdAt: now })
      .onConflictDoNothing()
  }
  const [row] = await db
    .update(products)
    .set({
      imageHash: image?.sha256 ?? null,
      imageType: image?.contentType ?? null,
      imageWidth: image?.width ?? null,
      imageHeight: image?.height ?? null,
      updatedAt: now,
    })
    .where(eq(products.id, id))
    .returning()
  if (!row) {
    if (image) await dropImageIfUnused(db, image.sha256)
    return null
  }
  if (before.imageHash && before.imageHash !== row.imageHash)
    await dropImageIfUnused(db, before.imageHash)
  return { product: row, previous: before.imageHash }
}

/** Removes an image no product names, in one statement (a product pointing at it keeps it). */
async function dropImageIfUnused(db: Db, sha256: string): Promise<void> {
  await db
    .delete(productImages)
    .where(
      and(
        eq(productImages.sha256, sha256),
        sql`NOT EXISTS (SELECT 1 FROM ${products} WHERE ${col(products.imageHash)} = ${col(productImages.sha256)})`,
      ),
    )
}

/** A stored product image by its hash: what its address serves. */
export async function getProductImage(
  db: Db,
  sha256: string,
): Promise<{ contentType: string; bytes: Uint8Array } | null> {
  const [row] = await db
    .select({ contentType: productImages.contentType, bytes: productImages.bytes })
    .from(productImages)
    .where(eq(productImages.sha256, sha256))
  return row ?? null
}
