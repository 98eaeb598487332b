/**
 * The principal: who is behind a request — the admin token (the owner's break-glass login and
 * API key), a signed-in person, or an API key — and what it may do.
 */
import type { ApiKeyScope, User } from '../../db/schema.js'
import { type Permission, READ_PERMISSIONS, type Role, roleAllows } from './roles.js'

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

/** The role a principal acts with: the admin token is an owner. */
export function principalRole(principal: Principal): Role {
  return principal.kind === 'admin' ? 'owner' : principal.role
}

/** Whether `principal` may do what needs `permission`; a read key only reads. */
export function allows(principal: Principal, permission: Permission): boolean {
  if (principal.kind === 'key' && principal.scope === 'read' && !READ_PERMISSIONS.has(permission))
    return false
  return roleAllows(principalRole(principal), permission)
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

/** The principal of a person's row. */
export function userPrincipal(user: User): Principal {
  return { kind: 'user', userId: user.id, email: user.email, name: user.name, role: user.role }
}
