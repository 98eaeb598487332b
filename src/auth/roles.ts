/**
 * Who may do what. A role is a set of permissions; every dashboard route and API call names the
 * permission it needs (src/auth/policy.ts), so this table is the one place access is decided.
 */
import { ROLES, type Role } from '../../db/schema.js'

export { ROLES, type Role }

/** Everything a route can ask of the person or key behind a request. */
export const PERMISSIONS = [
  // See links and their payments (lists, detail, overview, search).
  'links.read',
  'payments.read',
  // Today's payments only: what a cashier sees of the payments list.
  'payments.today',
  // Create, change, deactivate links; cancel a payment.
  'links.write',
  // Download CSV exports.
  'exports',
  // Manage outbound webhook endpoints and redeliver.
  'webhooks',
  // The till (point of sale).
  'till',
  // Store settings and branding.
  'settings',
  // Invite people, change roles, remove people, end sessions.
  'people',
  // Create and revoke API keys.
  'keys',
  // Read the audit log.
  'audit',
] as const
export type Permission = (typeof PERMISSIONS)[number]

const ROLE_PERMISSIONS: Record<Role, ReadonlySet<Permission>> = {
  owner: new Set(PERMISSIONS),
  manager: new Set([
    'links.read',
    'payments.read',
    'payments.today',
    'links.write',
    'exports',
    'webhooks',
    'till',
  ]),
  cashier: new Set(['payments.today', 'till']),
  // Read only; exporting is reading, and the accountant's main need.
  viewer: new Set(['links.read', 'payments.read', 'payments.today', 'exports']),
}

/** Whether `role` carries `permission`. */
export function roleAllows(role: Role, permission: Permission): boolean {
  return ROLE_PERMISSIONS[role].has(permission)
}

/** The permissions of `role`, in PERMISSIONS order. */
export function permissionsOf(role: Role): Permission[] {
  return PERMISSIONS.filter((p) => ROLE_PERMISSIONS[role].has(p))
}

/** Whether a string names a role. */
export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value)
}

/** Permissions that only read: what a `read` API key keeps of its person's role. */
export const READ_PERMISSIONS: ReadonlySet<Permission> = new Set([
  'links.read',
  'payments.read',
  'payments.today',
  'exports',
  'audit',
])
