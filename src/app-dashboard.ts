/**
 * The back office alone, as the production Worker's second half serves it
 * (src/worker-dashboard.ts): the dashboard and the till under `/dashboard`, behind the same
 * middleware as the whole app (src/app-shell.ts).
 */
import type { AppDeps } from './app-deps.js'
import { appShell, type PaylinksApp } from './app-shell.js'
import { dashboardRoutes } from './routes/dashboard.js'

/** Builds the back office's app. */
export function createDashboardApp(deps: AppDeps): PaylinksApp {
  return appShell(deps, { routes: (app) => app.route('/dashboard', dashboardRoutes) }).app
}
