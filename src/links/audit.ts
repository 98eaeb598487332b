/**
 * What the audit log keeps of a link's changes, made by the dashboard and the API alike: the
 * link's id and title and the names of the fields sent, never their values (a memo or message
 * may name a customer).
 */
import type { Context } from 'hono'
import { auditRequest } from '../auth/audit-request.js'
import type { AuditAction } from '../domain/audit-actions.js'
import type { LinkResult } from './service.js'

/** Records a successful create or update; a refused one changed nothing and is not recorded. */
export async function auditLinkResult(
  // biome-ignore lint/suspicious/noExplicitAny: the dashboard's and the API's contexts alike.
  c: Context<any>,
  result: LinkResult,
  body: unknown,
): Promise<void> {
  if (!result.ok) return
  const { link, before } = result
  let action: AuditAction = 'link_created'
  if (before) {
    action = 'link_updated'
    if (before.active && !link.active) action = 'link_deactivated'
    if (!before.active && link.active) action = 'link_activated'
  }
  const fields =
    body && typeof body === 'object' && !Array.isArray(body) ? Object.keys(body).sort() : []
  await auditRequest(c, {
    action,
    target: { kind: 'link', id: link.id },
    detail: before ? { title: link.title, fields } : { title: link.title },
  })
}

/** Records the removal of an unused link. */
// biome-ignore lint/suspicious/noExplicitAny: the dashboard's and the API's contexts alike.
export async function auditLinkDeleted(c: Context<any>, id: string): Promise<void> {
  await auditRequest(c, { action: 'link_deleted', target: { kind: 'link', id } })
}
