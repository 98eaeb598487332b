/** Audit entries made by a dashboard request: its time, its client's address, its principal. */
import type { User } from '../../db/schema.js'
import type { Principal } from '../auth/principal.js'
import { type AuditInput, recordAudit } from '../data/audit.js'
import type { DashC } from './context.js'

/** The principal of a person's row. */
export function userPrincipal(user: User): Principal {
  return { kind: 'user', userId: user.id, email: user.email, name: user.name, role: user.role }
}

/** Records one act of this request; the actor is the request's principal unless given. */
export function auditRequest(
  c: DashC,
  input: Omit<AuditInput, 'at' | 'address' | 'actor'> & { actor?: Principal | null },
): Promise<void> {
  return recordAudit(c.get('db'), {
    ...input,
    actor: input.actor === undefined ? (c.get('principal') ?? null) : input.actor,
    at: c.get('clock')(),
    address: c.get('clientIp')(c),
  })
}
