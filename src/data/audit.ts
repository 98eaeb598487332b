/** Writing the audit log (reading it for the owner's page lives with that page). */
import { auditLog } from '../../db/schema.js'
import type { AuditAction } from '../domain/audit-actions.js'
import { type Principal, principalId, principalLabel } from '../domain/principal.js'
import type { Db } from './db.js'

/** One act to record. `detail` must hold no secret, password or customer data. */
export interface AuditInput {
  at: number
  action: AuditAction
  /** Who acted; null when no one is known (a failed login). */
  actor: Principal | null
  /** For a failed login: the e-mail tried, as the label (never the password). */
  actorLabel?: string
  target?: { kind: string; id: string }
  detail?: Record<string, unknown>
  /** The client's address. */
  address?: string
}

/** Appends one entry to the audit log. */
export async function recordAudit(db: Db, input: AuditInput): Promise<void> {
  await db.insert(auditLog).values({
    at: input.at,
    actorKind: input.actor?.kind ?? 'anonymous',
    actorId: input.actor ? principalId(input.actor) : null,
    actorLabel: input.actorLabel ?? (input.actor ? principalLabel(input.actor) : null),
    action: input.action,
    targetKind: input.target?.kind ?? null,
    targetId: input.target?.id ?? null,
    detail: input.detail ?? null,
    address: input.address ?? null,
  })
}
