/** What the audit log records: one name per kind of act, grouped for the log's filter. */
export const AUDIT_ACTIONS = {
  access: [
    'login',
    'login_failed',
    'logout',
    'logout_everywhere',
    'store_logout_everywhere',
    'password_changed',
    'twofactor_enabled',
    'twofactor_disabled',
    'recovery_code_used',
    'recovery_codes_renewed',
  ],
  people: ['invite_created', 'invite_revoked', 'invite_accepted', 'role_changed', 'user_removed'],
  keys: ['key_created', 'key_revoked'],
  links: [
    'link_created',
    'link_updated',
    'link_deactivated',
    'link_activated',
    'link_deleted',
    'checkout_canceled',
    'payment_canceled',
    'checkout_created',
    'checkout_expired',
  ],
  products: [
    'product_created',
    'product_updated',
    'product_archived',
    'product_unarchived',
    'product_deleted',
    'product_image_changed',
  ],
  promo_codes: [
    'promo_code_created',
    'promo_code_updated',
    'promo_code_deactivated',
    'promo_code_activated',
  ],
  webhooks: [
    'webhook_endpoint_created',
    'webhook_endpoint_updated',
    'webhook_endpoint_deleted',
    'webhook_secret_rotated',
    'delivery_redelivered',
  ],
  settings: ['settings_changed', 'logo_changed'],
  exports: ['export_downloaded'],
} as const

export type AuditGroup = keyof typeof AUDIT_ACTIONS
export type AuditAction = (typeof AUDIT_ACTIONS)[AuditGroup][number]

/** Every action, for schemas. */
export const ALL_AUDIT_ACTIONS = Object.values(AUDIT_ACTIONS).flat() as AuditAction[]

/** The group an action belongs to. */
export function auditGroupOf(action: string): AuditGroup | undefined {
  for (const [group, actions] of Object.entries(AUDIT_ACTIONS) as [AuditGroup, readonly string[]][])
    if (actions.includes(action)) return group
  return undefined
}

/** The groups, in the filter's order. */
export const AUDIT_GROUPS = Object.keys(AUDIT_ACTIONS) as AuditGroup[]
