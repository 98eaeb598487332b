/**
 * The back office alone, as the production Worker's second half serves it
 * (src/runtime/worker/dashboard.ts): the dashboard and the till under `/dashboard`, behind the same
 * middleware as the whole app (src/app/shell.ts).
 */
import type { AppDeps } from '../deps.js'
import { dashboardRoutes } from '../routes/dashboard.js'
import { appShell, type PaylinksApp } from './shell.js'

/** Builds the back office's app. */
export function createDashboardApp(deps: AppDeps): PaylinksApp {
  return appShell(deps, { routes: (app) => app.route('/dashboard', dashboardRoutes) }).app
}
