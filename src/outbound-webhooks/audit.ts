/**
 * What the audit log keeps of webhook endpoint changes, from the dashboard and the API alike: the
 * endpoint's id, its address without query (which may carry a receiver's token) and the names of
 * the fields changed; never a secret.
 */
import type { Context } from 'hono'
import type { WebhookEndpoint } from '../../db/schema.js'
import { auditRequest } from '../auth/audit-request.js'
import type { AuditAction } from '../domain/audit-actions.js'
import { withoutQuery } from '../lib/redact.js'

/** Records one act on an endpoint. */
export async function auditEndpoint(
  // biome-ignore lint/suspicious/noExplicitAny: the dashboard's and the API's contexts alike.
  c: Context<any>,
  action: AuditAction,
  endpoint: Pick<WebhookEndpoint, 'id' | 'url'>,
  extra: Record<string, unknown> = {},
): Promise<void> {
  await auditRequest(c, {
    action,
    target: { kind: 'webhook_endpoint', id: endpoint.id },
    detail: { url: withoutQuery(endpoint.url), ...extra },
  })
}
