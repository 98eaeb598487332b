/**
 * The audit entry object of the merchant API: the mapping from an audit row. Its zod schemas, from
 * which the OpenAPI document is made, are in object-schemas.ts (re-exported here).
 */
import type * as z from 'zod'
import type { AuditEntry } from '../../../db/schema.js'
import { auditGroupOf } from '../../domain/audit-actions.js'
import type { auditEntryObject } from './object-schemas.js'

export { auditEntryObject, auditList } from './object-schemas.js'

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString())

/** An audit row as the API shows it. */
export function toAuditObject(e: AuditEntry): z.infer<typeof auditEntryObject> {
  return {
    id: e.id,
    at: iso(e.at)!,
    actor: { kind: e.actorKind, id: e.actorId, label: e.actorLabel },
    action: e.action,
    group: auditGroupOf(e.action) ?? null,
    target: e.targetKind && e.targetId ? { kind: e.targetKind, id: e.targetId } : null,
    detail: e.detail,
    address: e.address,
  }
}
