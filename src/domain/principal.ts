/**
 * The principal: who is behind a request — the admin token (the owner's break-glass login and
 * API key), a signed-in person, or an API key — and how the audit log and the pages name it.
 * What it may do is src/auth/principal.ts.
 */
import type { ApiKeyScope, Role } from '../../db/schema.js'

export type Principal =
  | { kind: 'admin' }
  | { kind: 'user'; userId: string; email: string; name: string; role: Role }
  | {
      kind: 'key'
      keyId: string
      name: string
      scope: ApiKeyScope
      // The person the key acts for (null: the store, with the owner's role).
      userId: string | null
      role: Role
    }

/** What the audit log and the pages call a principal: an e-mail, a key's name, or "admin token". */
export function principalLabel(principal: Principal): string {
  if (principal.kind === 'admin') return 'admin token'
  if (principal.kind === 'user') return principal.email
  return principal.name
}

/** The id the audit log keeps for a principal (null for the admin token). */
export function principalId(principal: Principal): string | null {
  if (principal.kind === 'admin') return null
  return principal.kind === 'user' ? principal.userId : principal.keyId
}
