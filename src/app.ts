/**
 * Paylinks as one Hono app on Web APIs only. The Node and Workers entry files build `AppDeps`
 * (database, configuration, gateway client, secrets) and hand them to `createApp`.
 */
import { Hono } from 'hono'
import { TrieRouter } from 'hono/router/trie-router'
import type { AppDeps, AppEnv, QrCache } from './app-deps.js'
import { compressPages } from './http/compress-pages.js'
import { requestLog } from './http/request-log.js'
import { securityHeaders, securityPolicy } from './http/security-headers.js'
import { describe } from './lib/describe-error.js'
import { createLru } from './lib/lru.js'
import { apiRoutes } from './routes/api.js'
import { brandRoutes } from './routes/brand.js'
import { checkoutRoutes } from './routes/checkout.js'
import { preparedCheckoutPage } from './routes/checkout-prepared.js'
import { dashboardRoutes } from './routes/dashboard.js'
import { notFoundPage, serverErrorPage } from './routes/error-pages.js'
import { faviconRoutes } from './routes/favicon.js'
import { healthRoutes } from './routes/health.js'
import { freshBrand } from './routes/page.js'
import { qrRoutes } from './routes/qr.js'
import { receiptRoutes } from './routes/receipt.js'
import type { StaticPage } from './routes/static-page.js'
import { termsRoutes } from './routes/terms.js'
import { isWebhookRequest, WEBHOOK_PATH, webhookEndpoint } from './routes/webhooks.js'

/** Something that answers requests under `/_sim` (the built-in gateway simulator). */
export interface Mountable {
  /** `env` is the runtime's bindings: on Node, the incoming message a GET's body is read from. */
  fetch(request: Request, env?: unknown): Response | Promise<Response>
}

/** Builds the app. `simulator`, when given, is mounted at `/_sim`. */
export function createApp(deps: AppDeps, options: { simulator?: Mountable } = {}) {
  // Hono's default router (SmartRouter) tries RegExpRouter at the first request, which refuses
  // these routes (`/dashboard/links/:id/edit` beside `/dashboard/links/new`), then settles on the
  // trie router: naming it spares every start's first request that failed attempt.
  const app = new Hono<AppEnv>({ router: new TrieRouter() })
  // Enough for the links people are scanning right now.
  const qrCache: QrCache = createLru(500)
  const pageCache = createLru<StaticPage>(500)
  const security = securityPolicy(deps.config)

  // The gateway's webhooks skip the middleware (see docs/decisions/performance.md, "Webhooks"),
  // and routing too when the path is spelt plainly (below).
  const webhook = webhookEndpoint(deps, security)
  app.post(WEBHOOK_PATH, (c) => webhook(c.req.raw))
  app.use(async (c, next) => {
    for (const [key, value] of Object.entries(deps)) c.set(key as keyof AppDeps, value as never)
    c.set('qrCache', qrCache)
    c.set('pageCache', pageCache)
    c.set('security', security)
    await next()
  })
  app.use(requestLog(deps))
  if (options.simulator) {
    const simulator = options.simulator
    app.all('/_sim/*', (c) => {
      const url = new URL(c.req.url)
      url.pathname = url.pathname.slice('/_sim'.length) || '/'
      return simulator.fetch(new Request(url, c.req.raw), c.env)
    })
  }
  app.use(securityHeaders(security))
  app.use(compressPages(deps.encodePage))
  // Pages read the stored branding first; the checkout reads its version with the link instead.
  for (const path of ['/r/*', '/terms', '/dashboard/*']) app.use(path, freshBrand)
  app.route('/', healthRoutes)
  app.route('/', brandRoutes)
  app.route('/', checkoutRoutes)
  app.route('/', qrRoutes)
  app.route('/', receiptRoutes)
  app.route('/', termsRoutes)
  app.route('/', faviconRoutes)
  app.route('/dashboard', dashboardRoutes)
  app.route('/api', apiRoutes)
  app.get('/', (c) => c.redirect('/dashboard'))
  // The till's short address; the page and its permission live under the dashboard's session.
  app.get('/till', (c) => c.redirect('/dashboard/till'))
  app.notFound((c) =>
    c.req.path.startsWith('/api/')
      ? c.json({ error: { code: 'not_found', message: 'No such route.' } }, 404)
      : notFoundPage(c),
  )
  app.onError((error, c) => {
    deps.log({
      level: 'error',
      event: 'unhandled',
      request_id: c.var.requestId,
      route: c.req.routePath,
      error: describe(error),
    })
    if (c.req.path.startsWith('/api/') || c.req.path.startsWith('/webhooks/')) {
      return c.json(
        { error: { code: 'internal', message: 'Something went wrong; it has been logged.' } },
        500,
      )
    }
    return serverErrorPage(c)
  })
  // The prepared page skips routing (docs/decisions/performance.md, "Answered before routing").
  const prepared = preparedCheckoutPage(deps, pageCache)
  const route = app.fetch
  app.fetch = (request, env, executionCtx) =>
    isWebhookRequest(request)
      ? webhook(request, env)
      : (prepared(request) ?? route(request, env, executionCtx))
  return app
}

export type App = ReturnType<typeof createApp>
