/**
 * One audit entry of each kind of act, with the target and detail Paylinks records for it (the
 * shapes written by src/dashboard, src/api, src/links and src/outbound-webhooks). Typed by every
 * action: a new action fails the typecheck until it has a sample here, and so is shown by the
 * audit page's tests.
 */
import type { AuditInput } from '../../src/data/audit.js'
import type { AuditAction } from '../../src/domain/audit-actions.js'

export type AuditSample = Pick<AuditInput, 'target' | 'detail'>

const URL = 'https://erp.boutique.example.dz/hooks/paylinks'
const KEY = { name: 'Site de la boutique', prefix: 'pl_test_8f3a', scope: 'write', user_id: null }

export const AUDIT_SAMPLES: Record<AuditAction, AuditSample> = {
  login: { detail: { method: 'password', second: 'totp' } },
  login_failed: { detail: { method: 'password', step: 'code' } },
  logout: {},
  logout_everywhere: {
    target: { kind: 'user', id: 'usr_2b7c9d1e4f' },
    detail: { email: 'caisse@boutique.example.dz', sessions: 3 },
  },
  store_logout_everywhere: {},
  password_changed: { target: { kind: 'user', id: 'usr_2b7c9d1e4f' } },
  twofactor_enabled: { target: { kind: 'user', id: 'usr_2b7c9d1e4f' } },
  twofactor_disabled: { target: { kind: 'user', id: 'usr_2b7c9d1e4f' } },
  recovery_code_used: { detail: { left: 7 } },
  recovery_codes_renewed: { target: { kind: 'user', id: 'usr_2b7c9d1e4f' } },
  invite_created: {
    target: { kind: 'invite', id: 'inv_5d1a0c' },
    detail: { email: 'nouvelle.caissiere@boutique.example.dz', role: 'cashier' },
  },
  invite_revoked: { target: { kind: 'invite', id: 'inv_5d1a0c' } },
  invite_accepted: { target: { kind: 'invite', id: 'inv_5d1a0c' }, detail: { role: 'manager' } },
  role_changed: {
    target: { kind: 'user', id: 'usr_2b7c9d1e4f' },
    detail: { email: 'caisse@boutique.example.dz', from: 'cashier', to: 'manager' },
  },
  user_removed: {
    target: { kind: 'user', id: 'usr_2b7c9d1e4f' },
    detail: { email: 'caisse@boutique.example.dz', role: 'viewer' },
  },
  key_created: { target: { kind: 'api_key', id: 'key_7e2f' }, detail: KEY },
  key_revoked: {
    target: { kind: 'api_key', id: 'key_7e2f' },
    detail: { ...KEY, scope: 'read', user_id: 'usr_2b7c9d1e4f', reason: 'person_removed' },
  },
  link_created: {
    target: { kind: 'link', id: 'lnk_till01' },
    detail: { source: 'till', amount: 125000 },
  },
  link_updated: {
    target: { kind: 'link', id: 'lnk_9xk2m4' },
    detail: { title: 'Atelier poterie', fields: ['amount', 'description', 'max_payments'] },
  },
  link_deactivated: {
    target: { kind: 'link', id: 'lnk_9xk2m4' },
    detail: { title: 'Atelier poterie', fields: ['active'] },
  },
  link_activated: {
    target: { kind: 'link', id: 'lnk_9xk2m4' },
    detail: { title: 'Atelier poterie', fields: ['active', 'inactive_message'] },
  },
  link_deleted: { target: { kind: 'link', id: 'lnk_9xk2m4' } },
  product_created: {
    target: { kind: 'product', id: 'prod_4k9Tj2' },
    detail: { name: 'Tajine en terre cuite' },
  },
  product_updated: {
    target: { kind: 'product', id: 'prod_4k9Tj2' },
    detail: { name: 'Tajine en terre cuite', fields: ['price', 'sku', 'stock'] },
  },
  product_archived: {
    target: { kind: 'product', id: 'prod_4k9Tj2' },
    detail: { name: 'Tajine en terre cuite', fields: ['active'] },
  },
  product_unarchived: {
    target: { kind: 'product', id: 'prod_4k9Tj2' },
    detail: { name: 'Tajine en terre cuite', fields: ['active'] },
  },
  product_deleted: {
    target: { kind: 'product', id: 'prod_4k9Tj2' },
    detail: { name: 'Tajine en terre cuite' },
  },
  product_image_changed: {
    target: { kind: 'product', id: 'prod_4k9Tj2' },
    detail: {
      name: 'Tajine en terre cuite',
      change: 'set',
      type: 'image/jpeg',
      width: 800,
      height: 600,
      bytes: 96_256,
    },
  },
  promo_code_created: {
    target: { kind: 'promo_code', id: 'promo_3Hq8Wn' },
    detail: { code: 'RAMADAN10' },
  },
  promo_code_updated: {
    target: { kind: 'promo_code', id: 'promo_3Hq8Wn' },
    detail: { code: 'RAMADAN10', fields: ['max_redemptions', 'percent_off'] },
  },
  promo_code_deactivated: {
    target: { kind: 'promo_code', id: 'promo_3Hq8Wn' },
    detail: { code: 'RAMADAN10', fields: ['active'] },
  },
  promo_code_activated: {
    target: { kind: 'promo_code', id: 'promo_3Hq8Wn' },
    detail: { code: 'RAMADAN10', fields: ['active'] },
  },

  checkout_canceled: {
    target: { kind: 'checkout', id: 'chk_8Lq2Wm4Xc7Vb1Nz6Hs9Tk3Pd' },
    detail: { reference: 'CMD-1042', amount: 350000 },
  },
  payment_canceled: {
    target: { kind: 'payment', id: 'pay_3c8d2a' },
    detail: { amount: 250000, link_id: 'lnk_9xk2m4' },
  },
  checkout_created: {
    target: { kind: 'checkout', id: 'chk_8Lq2Wm4Xc7Vb1Nz6Hs9Tk3Pd' },
    detail: { reference: 'CMD-1042', amount: 350000 },
  },
  checkout_expired: {
    target: { kind: 'checkout', id: 'chk_8Lq2Wm4Xc7Vb1Nz6Hs9Tk3Pd' },
    detail: { reference: null, amount: 129950 },
  },
  webhook_endpoint_created: {
    target: { kind: 'webhook_endpoint', id: 'we_4a1b' },
    detail: { url: URL, event_types: ['payment.paid', 'payment.failed'] },
  },
  webhook_endpoint_updated: {
    target: { kind: 'webhook_endpoint', id: 'we_4a1b' },
    detail: { url: URL, fields: ['enabled'], enabled: false },
  },
  webhook_endpoint_deleted: {
    target: { kind: 'webhook_endpoint', id: 'we_4a1b' },
    detail: { url: URL },
  },
  webhook_secret_rotated: {
    target: { kind: 'webhook_endpoint', id: 'we_4a1b' },
    detail: { url: URL },
  },
  delivery_redelivered: {
    target: { kind: 'webhook_endpoint', id: 'we_4a1b' },
    detail: { url: URL, event_id: 'evt_6f0e2d9c' },
  },
  settings_changed: {
    target: { kind: 'settings', id: 'branding' },
    detail: { fields: ['merchantName', 'brandColor', 'tillLinkMinutes'] },
  },
  logo_changed: {
    target: { kind: 'settings', id: 'logo' },
    detail: { change: 'set', type: 'image/png', width: 240, height: 96, bytes: 18_432 },
  },
  export_downloaded: {
    detail: {
      export: 'payments.csv',
      filters: { status: 'paid', from: '2026-11-01' },
      search: true,
    },
  },
}

/**
 * Other details some acts record (a variant of the same action): each is shown by the same
 * renderer as its action's sample.
 */
export const AUDIT_VARIANTS: [AuditAction, AuditSample][] = [
  ['login', { detail: { method: 'invite' } }],
  ['login', { detail: { method: 'admin_token' } }],
  ['login', { detail: { method: 'password', second: 'recovery' } }],
  ['login', { detail: { method: 'password', second: 'enrolled' } }],
  ['login_failed', { detail: { method: 'admin_token' } }],
  [
    'link_created',
    { target: { kind: 'link', id: 'lnk_9xk2m4' }, detail: { title: 'Atelier poterie' } },
  ],
  ['link_deactivated', { target: { kind: 'link', id: 'lnk_till01' }, detail: { source: 'till' } }],
  [
    'webhook_endpoint_updated',
    {
      target: { kind: 'webhook_endpoint', id: 'we_4a1b' },
      detail: { url: URL, fields: ['description', 'event_types', 'url'] },
    },
  ],
  [
    'webhook_endpoint_updated',
    {
      target: { kind: 'webhook_endpoint', id: 'we_4a1b' },
      detail: { url: URL, fields: ['description', 'eventTypes'] },
    },
  ],
  ['settings_changed', { detail: { require_two_factor: true } }],
  ['settings_changed', { detail: { key: 'till_presets', items: 6 } }],
  ['logo_changed', { target: { kind: 'settings', id: 'logo' }, detail: { change: 'removed' } }],
  ['export_downloaded', { detail: { export: 'payments.csv', filters: {}, search: false } }],
]
