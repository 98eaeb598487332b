/**
 * Paylinks without its back office: the checkout, receipts, QR codes, terms and branding, the
 * gateway's webhooks and the merchant API. `dashboard` adds what answers under `/dashboard`: the
 * back office's own routes (src/app/index.ts, Node and the development Worker) or, in the production
 * Worker, the hand-over to the back-office Worker (src/runtime/worker/dashboard-link.ts).
 */
import type { AppDeps } from '../deps.js'
import { apiRoutes } from '../routes/api.js'
import { brandRoutes } from '../routes/brand.js'
import { checkoutRoutes } from '../routes/checkout.js'
import { preparedCheckoutPage } from '../routes/checkout-prepared.js'
import { faviconRoutes } from '../routes/favicon.js'
import { healthRoutes } from '../routes/health.js'
import { productImageRoutes } from '../routes/product-images.js'
import { qrRoutes } from '../routes/qr.js'
import { receiptRoutes } from '../routes/receipt.js'
import { termsRoutes } from '../routes/terms.js'
import { isWebhookRequest, WEBHOOK_PATH, webhookEndpoint } from '../routes/webhooks.js'
import { appShell, type Mountable, type PaylinksApp, type Shell } from './shell.js'

export interface CustomerAppOptions {
  /** Mounted at `/_sim` when given (the built-in gateway simulator). */
  simulator?: Mountable
  /** What answers under `/dashboard`: routes behind the middleware, or ahead of it. */
  dashboard: { routes?: (app: PaylinksApp) => void; ahead?: (shell: Shell) => void }
}

/** Builds the customer side of Paylinks, with `dashboard` under `/dashboard`. */
export function createCustomerApp(deps: AppDeps, options: CustomerAppOptions): PaylinksApp {
  const { app, pageCache, security } = appShell(deps, {
    ...(options.simulator ? { simulator: options.simulator } : {}),
    ahead(shell) {
      // The gateway's webhooks skip the middleware (see docs/decisions/performance.md,
      // "Webhooks"), and routing too when the path is spelt plainly (below).
      shell.app.post(WEBHOOK_PATH, (c) => webhook(c.req.raw))
      options.dashboard.ahead?.(shell)
    },
    routes(app) {
      app.route('/', healthRoutes)
      app.route('/', brandRoutes)
      app.route('/', productImageRoutes)
      app.route('/', checkoutRoutes)
      app.route('/', qrRoutes)
      app.route('/', receiptRoutes)
      app.route('/', termsRoutes)
      app.route('/', faviconRoutes)
      options.dashboard.routes?.(app)
      app.route('/api', apiRoutes)
      app.get('/', (c) => c.redirect('/dashboard'))
      // The till's short address; the page and its permission live under the dashboard's session.
      app.get('/till', (c) => c.redirect('/dashboard/till'))
    },
  })
  const webhook = webhookEndpoint(deps, security)
  // The prepared page skips routing (docs/decisions/performance.md, "Answered before routing").
  const prepared = preparedCheckoutPage(deps, pageCache)
  const route = app.fetch
  app.fetch = (request, env, executionCtx) =>
    isWebhookRequest(request)
      ? webhook(request, env)
      : (prepared(request) ?? route(request, env, executionCtx))
  return app
}
