/**
 * Applies the route policy (src/auth/policy.ts) to the request's principal: behind the session
 * check in the dashboard and the key check in the API, before any handler reads or changes
 * anything.
 */
import type { Context, MiddlewareHandler } from 'hono'
import type { AppEnv } from '../deps.js'
import { requirementOf } from './policy.js'
import { allows } from './principal.js'
import type { Permission } from './roles.js'

/**
 * Lets the request through when its principal has what its route needs; otherwise `refuse`
 * answers (a 403 in the surface's own form) with the missing permission. A route the policy
 * does not list is passed on: only its 405 or 404 can answer.
 */
export function enforcePolicy<E extends AppEnv>(
  refuse: (c: Context<E>, missing: Permission) => Response | Promise<Response>,
): MiddlewareHandler<E> {
  return async (c, next) => {
    const requirement = requirementOf(c.req.method, c.req.path)
    if (requirement === 'unlisted') return next()
    const principal = c.get('principal')
    if (!principal) throw new Error('enforcePolicy runs after authentication')
    if (requirement === 'signed-in' || allows(principal, requirement)) return next()
    return refuse(c, requirement)
  }
}
