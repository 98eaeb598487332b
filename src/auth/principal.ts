/**
 * What a principal — the admin token, a signed-in person, or an API key (src/domain/principal.ts)
 * — may do.
 */
import type { User } from '../../db/schema.js'
import type { Principal } from '../domain/principal.js'
import { type Permission, READ_PERMISSIONS, type Role, roleAllows } from './roles.js'

export { type Principal, principalId, principalLabel } from '../domain/principal.js'

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

/** The principal of a person's row. */
export function userPrincipal(user: User): Principal {
  return { kind: 'user', userId: user.id, email: user.email, name: user.name, role: user.role }
}
