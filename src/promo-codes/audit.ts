/**
 * What the audit log keeps of a promo code's changes, made by the dashboard and the API alike: its
 * id and code and the names of the fields sent, never their values.
 */
import type { Context } from 'hono'
import { auditRequest } from '../auth/audit-request.js'
import type { AuditAction } from '../domain/audit-actions.js'
import type { PromoCodeResult } from './service.js'

/** Records a successful create or update; a refused one changed nothing and is not recorded. */
export async function auditPromoCodeResult(
  // biome-ignore lint/suspicious/noExplicitAny: the dashboard's and the API's contexts alike.
  c: Context<any>,
  result: PromoCodeResult,
  body: unknown,
): Promise<void> {
  if (!result.ok) return
  const { promoCode, before } = result
  let action: AuditAction = 'promo_code_created'
  if (before) {
    action = 'promo_code_updated'
    if (before.active && !promoCode.active) action = 'promo_code_deactivated'
    if (!before.active && promoCode.active) action = 'promo_code_activated'
  }
  const fields =
    body && typeof body === 'object' && !Array.isArray(body) ? Object.keys(body).sort() : []
  await auditRequest(c, {
    action,
    target: { kind: 'promo_code', id: promoCode.id },
    detail: before ? { code: promoCode.code, fields } : { code: promoCode.code },
  })
}
