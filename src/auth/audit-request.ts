/** Recording an act of the request's principal, from the request's context. */
import type { Context } from 'hono'
import type { AppEnv } from '../app-deps.js'
import { recordAudit } from '../data/audit.js'
import type { AuditAction } from './audit-actions.js'

/**
 * Appends `action` by the request's principal, from its address, to the audit log. `detail`
 * holds ids and names only: never a secret, never a customer's data.
 */
export async function auditRequest(
  // biome-ignore lint/suspicious/noExplicitAny: the dashboard's and the API's contexts both carry AppEnv's variables.
  c: Context<any>,
  action: AuditAction,
  target?: { kind: string; id: string },
  detail?: Record<string, unknown>,
): Promise<void> {
  const ctx = c as Context<AppEnv>
  await recordAudit(ctx.get('db'), {
    at: ctx.get('clock')(),
    action,
    actor: ctx.get('principal') ?? null,
    ...(target ? { target } : {}),
    ...(detail ? { detail } : {}),
    address: ctx.get('clientIp')(ctx),
  })
}
