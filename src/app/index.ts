/**
 * Paylinks as one Hono app on Web APIs only. The Node and Workers entry files build `AppDeps`
 * (database, configuration, gateway client, secrets) and hand them to `createApp`. The production
 * Worker serves the same app in two halves (src/app/customer.ts, src/app/dashboard.ts).
 */

import type { AppDeps } from '../deps.js'
import { dashboardRoutes } from '../routes/dashboard.js'
import { createCustomerApp } from './customer.js'
import type { Mountable } from './shell.js'

export type { Mountable } from './shell.js'

/** Builds the app. `simulator`, when given, is mounted at `/_sim`. */
export function createApp(deps: AppDeps, options: { simulator?: Mountable } = {}) {
  return createCustomerApp(deps, {
    ...options,
    dashboard: { routes: (app) => app.route('/dashboard', dashboardRoutes) },
  })
}

export type App = ReturnType<typeof createApp>
