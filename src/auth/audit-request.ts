/** Recording an act of the request's principal, from the request's context. */
import type { Context } from 'hono'
import { type AuditInput, recordAudit } from '../data/audit.js'
import type { AppEnv } from '../deps.js'
import type { Principal } from './principal.js'

/**
 * Appends one act of this request to the audit log: its time, its client's address, and its
 * principal as the actor unless `actor` is given (null: no one known, as for a failed login).
 * `detail` holds ids and names only: never a secret, never a customer's data.
 */
export async function auditRequest(
  // biome-ignore lint/suspicious/noExplicitAny: the dashboard's and the API's contexts both carry AppEnv's variables.
  c: Context<any>,
  input: Omit<AuditInput, 'at' | 'address' | 'actor'> & { actor?: Principal | null },
): Promise<void> {
  const ctx = c as Context<AppEnv>
  await recordAudit(ctx.get('db'), {
    ...input,
    actor: input.actor === undefined ? (ctx.get('principal') ?? null) : input.actor,
    at: ctx.get('clock')(),
    address: ctx.get('clientIp')(ctx),
  })
}
