/**
 * What the audit log keeps of a product's changes, made by the dashboard and the API alike: its
 * id and name and the names of the fields sent, never their values.
 */
import type { Context } from 'hono'
import type { Product } from '../../db/schema.js'
import { auditRequest } from '../auth/audit-request.js'
import type { AuditAction } from '../domain/audit-actions.js'
import type { ProductResult } from './service.js'

/** Records a successful create or update; a refused one changed nothing and is not recorded. */
export async function auditProductResult(
  // biome-ignore lint/suspicious/noExplicitAny: the dashboard's and the API's contexts alike.
  c: Context<any>,
  result: ProductResult,
  body: unknown,
): Promise<void> {
  if (!result.ok) return
  const { product, before } = result
  let action: AuditAction = 'product_created'
  if (before) {
    action = 'product_updated'
    if (before.active && !product.active) action = 'product_archived'
    if (!before.active && product.active) action = 'product_unarchived'
  }
  const fields =
    body && typeof body === 'object' && !Array.isArray(body) ? Object.keys(body).sort() : []
  await auditRequest(c, {
    action,
    target: { kind: 'product', id: product.id },
    detail: before ? { name: product.name, fields } : { name: product.name },
  })
}

/** Records the removal of a product never sold. */
// biome-ignore lint/suspicious/noExplicitAny: the dashboard's and the API's contexts alike.
export async function auditProductDeleted(c: Context<any>, product: Product): Promise<void> {
  await auditRequest(c, {
    action: 'product_deleted',
    target: { kind: 'product', id: product.id },
    detail: { name: product.name },
  })
}

/** Records a new image (its type, size and bytes) or its removal. */
export async function auditProductImage(
  // biome-ignore lint/suspicious/noExplicitAny: the dashboard's context.
  c: Context<any>,
  product: Product,
  detail: Record<string, unknown>,
): Promise<void> {
  await auditRequest(c, {
    action: 'product_image_changed',
    target: { kind: 'product', id: product.id },
    detail: { name: product.name, ...detail },
  })
}
