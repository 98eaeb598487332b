/**
 * What the audit log keeps of a checkout made or expired through the API: its id, the shop's
 * reference and the amount (centimes), never the customer's prefill.
 */
import type { Context } from 'hono'
import type { Checkout } from '../../../db/schema.js'
import { auditRequest } from '../../auth/audit-request.js'
import type { AppEnv } from '../../deps.js'

/** Records a new checkout or an expiry asked for; a refused request changed nothing. */
export async function auditCheckout(
  c: Context<AppEnv>,
  action: 'checkout_created' | 'checkout_expired',
  checkout: Checkout,
): Promise<void> {
  await auditRequest(c, {
    action,
    target: { kind: 'checkout', id: checkout.id },
    detail: { reference: checkout.reference, amount: checkout.amount },
  })
}
