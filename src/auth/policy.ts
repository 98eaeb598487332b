/**
 * The permission each dashboard route and API call needs: the one table access is decided by.
 * `signed-in` lets any signed-in person through (their own account, signing out). Every route
 * the app registers under /dashboard and /api/v1 must be listed (test/auth/route-roles.test.ts
 * walks them all with every role); a method a path does not answer is left to its 405 or 404.
 */
import type { Permission } from './roles.js'

export type Requirement = Permission | 'signed-in'

const DASHBOARD: Record<string, Requirement> = {
  'POST /dashboard/logout': 'signed-in',
  'GET /dashboard': 'payments.read',
  'GET /dashboard/links': 'links.read',
  'GET /dashboard/links/new': 'links.write',
  'POST /dashboard/links': 'links.write',
  'GET /dashboard/links/:id': 'links.read',
  'GET /dashboard/links/:id/edit': 'links.write',
  'POST /dashboard/links/:id': 'links.write',
  'POST /dashboard/links/:id/deactivate': 'links.write',
  'POST /dashboard/links/:id/activate': 'links.write',
  'POST /dashboard/links/:id/delete': 'links.write',
  // The catalogue: read and changed as links are.
  'GET /dashboard/products': 'links.read',
  'GET /dashboard/products/new': 'links.write',
  'POST /dashboard/products': 'links.write',
  'GET /dashboard/products/:id': 'links.read',
  'POST /dashboard/products/:id': 'links.write',
  'POST /dashboard/products/:id/archive': 'links.write',
  'POST /dashboard/products/:id/unarchive': 'links.write',
  'POST /dashboard/products/:id/delete': 'links.write',
  'POST /dashboard/products/:id/image': 'links.write',
  'POST /dashboard/products/:id/image/delete': 'links.write',
  // Promo codes: read and changed as links are.
  'GET /dashboard/promo-codes': 'links.read',
  'GET /dashboard/promo-codes/new': 'links.write',
  'POST /dashboard/promo-codes': 'links.write',
  'GET /dashboard/promo-codes/:id': 'links.read',
  'POST /dashboard/promo-codes/:id': 'links.write',
  'POST /dashboard/promo-codes/:id/deactivate': 'links.write',
  'POST /dashboard/promo-codes/:id/activate': 'links.write',
  // A shop's checkouts: a checkout is a link with one place, read and closed as links are.
  'GET /dashboard/checkouts': 'links.read',
  'POST /dashboard/checkouts/:id/cancel': 'links.write',
  // A cashier sees today's payments but other cashiers' sales: src/auth/visibility.ts narrows
  // every payment read of these routes (and the API's, and the till's sales) to what one may see.
  'GET /dashboard/payments': 'payments.today',
  'GET /dashboard/payments.csv': 'exports',
  'GET /dashboard/payments/:id': 'payments.today',
  'GET /dashboard/webhooks': 'webhooks',
  'GET /dashboard/webhooks/new': 'webhooks',
  'POST /dashboard/webhooks': 'webhooks',
  'GET /dashboard/webhooks/:id': 'webhooks',
  'GET /dashboard/webhooks/:id/edit': 'webhooks',
  'POST /dashboard/webhooks/:id': 'webhooks',
  'POST /dashboard/webhooks/:id/enable': 'webhooks',
  'POST /dashboard/webhooks/:id/disable': 'webhooks',
  'POST /dashboard/webhooks/:id/rotate': 'webhooks',
  'POST /dashboard/webhooks/:id/delete': 'webhooks',
  'POST /dashboard/webhooks/:id/deliveries/:eventId/redeliver': 'webhooks',
  // People and the two-factor requirement: owners.
  'GET /dashboard/people': 'people',
  'POST /dashboard/people/invites': 'people',
  'POST /dashboard/people/invites/:id/revoke': 'people',
  'POST /dashboard/people/logout-everywhere': 'people',
  'POST /dashboard/people/require-two-factor': 'people',
  'POST /dashboard/people/:id/role': 'people',
  'POST /dashboard/people/:id/remove': 'people',
  'POST /dashboard/people/:id/logout': 'people',
  // One's own account.
  'GET /dashboard/account': 'signed-in',
  'POST /dashboard/account/password': 'signed-in',
  'GET /dashboard/account/two-factor': 'signed-in',
  'POST /dashboard/account/two-factor': 'signed-in',
  'POST /dashboard/account/two-factor/disable': 'signed-in',
  'POST /dashboard/account/recovery-codes': 'signed-in',
  'POST /dashboard/account/logout-everywhere': 'signed-in',
  'GET /dashboard/settings': 'settings',
  'POST /dashboard/settings': 'settings',
  'POST /dashboard/settings/logo': 'settings',
  'POST /dashboard/settings/logo/delete': 'settings',
  'GET /dashboard/keys': 'keys',
  'POST /dashboard/keys': 'keys',
  'POST /dashboard/keys/:id/revoke': 'keys',
  'GET /dashboard/audit': 'audit',
  // The till (point of sale); `GET /till` only redirects here.
  'GET /dashboard/till': 'till',
  'POST /dashboard/till/sales': 'till',
  'GET /dashboard/till/sales/:id/status': 'till',
  'GET /dashboard/till/sales/:id/events': 'till',
  'POST /dashboard/till/sales/:id/cancel': 'till',
  'GET /dashboard/till/report': 'till',
  // The till's preset items are the store's prices: a manager or the owner sets them.
  'GET /dashboard/till/presets': 'links.write',
  'POST /dashboard/till/presets': 'links.write',
}

/**
 * The routes under /dashboard and /api/v1 open to everyone, answered before the session or key
 * check: signing in (each step), accepting an invitation, the OpenAPI document. Listed so the
 * route test can tell them from a forgotten entry.
 */
export const PUBLIC_ROUTES: readonly string[] = [
  'GET /api/v1/openapi.json',
  'GET /dashboard/login',
  'POST /dashboard/login',
  'POST /dashboard/login/password',
  'POST /dashboard/login/code',
  'POST /dashboard/login/enrol',
  'GET /dashboard/invite/:token',
  'POST /dashboard/invite/:token',
]

const API: Record<string, Requirement> = {
  'GET /api/v1/links': 'links.read',
  'POST /api/v1/links': 'links.write',
  'GET /api/v1/links/:id': 'links.read',
  'PATCH /api/v1/links/:id': 'links.write',
  'DELETE /api/v1/links/:id': 'links.write',
  'GET /api/v1/products': 'links.read',
  'POST /api/v1/products': 'links.write',
  'GET /api/v1/products/:id': 'links.read',
  'PATCH /api/v1/products/:id': 'links.write',
  'DELETE /api/v1/products/:id': 'links.write',
  // Promo codes: read and changed as links are.
  'GET /api/v1/promo-codes': 'links.read',
  'POST /api/v1/promo-codes': 'links.write',
  'GET /api/v1/promo-codes/:id': 'links.read',
  'PATCH /api/v1/promo-codes/:id': 'links.write',
  'GET /api/v1/payments': 'payments.read',
  'GET /api/v1/payments/:id': 'payments.read',
  // A checkout is a link with one place: read and made as links are.
  'GET /api/v1/checkouts': 'links.read',
  'POST /api/v1/checkouts': 'links.write',
  'GET /api/v1/checkouts/:id': 'links.read',
  'POST /api/v1/checkouts/:id/expire': 'links.write',
  'GET /api/v1/webhook-endpoints': 'webhooks',
  'POST /api/v1/webhook-endpoints': 'webhooks',
  'GET /api/v1/webhook-endpoints/:id': 'webhooks',
  'PATCH /api/v1/webhook-endpoints/:id': 'webhooks',
  'DELETE /api/v1/webhook-endpoints/:id': 'webhooks',
  'POST /api/v1/webhook-endpoints/:id/rotate-secret': 'webhooks',
  'GET /api/v1/webhook-endpoints/:id/deliveries': 'webhooks',
  'POST /api/v1/webhook-endpoints/:id/deliveries/:eventId/redeliver': 'webhooks',
  'GET /api/v1/api-keys': 'keys',
  'POST /api/v1/api-keys': 'keys',
  'DELETE /api/v1/api-keys/:id': 'keys',
  'GET /api/v1/audit': 'audit',
}

/** Every entry: "METHOD /path/:param" → what it needs. */
export const ROUTE_POLICY: Readonly<Record<string, Requirement>> = { ...DASHBOARD, ...API }

type Compiled = { method: string; pattern: RegExp; requirement: Requirement }

const compiled: Compiled[] = Object.entries(ROUTE_POLICY).map(([key, requirement]) => {
  const [method, path] = key.split(' ') as [string, string]
  const source = path
    .split('/')
    .map((part) => (part.startsWith(':') ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/')
  return { method, pattern: new RegExp(`^${source}/?$`), requirement }
})

/**
 * What a request needs: its entry's requirement; `unlisted` when its path is listed for other
 * methods only or not at all (the route answers 405 or 404 and does nothing).
 */
export function requirementOf(method: string, path: string): Requirement | 'unlisted' {
  const verb = method === 'HEAD' ? 'GET' : method
  for (const entry of compiled) {
    if (entry.method === verb && entry.pattern.test(path)) return entry.requirement
  }
  return 'unlisted'
}
