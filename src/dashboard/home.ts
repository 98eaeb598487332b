/** The first page a role sees after signing in: the overview, else today's payments. */
import { type Role, roleAllows } from '../auth/roles.js'

export function homeOf(role: Role): string {
  return roleAllows(role, 'payments.read') ? '/dashboard' : '/dashboard/payments'
}
