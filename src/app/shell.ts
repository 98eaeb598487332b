/**
 * What every Paylinks app has around its routes: the dependencies in `c.var`, the request log, the
 * simulator's mount, the security headers, compression, `no-store` on the API and the back office,
 * the branding pages read first, and the answers to an unknown route and to an error. The apps
 * (src/app/index.ts, the whole of Paylinks; the Worker's customer and back-office halves,
 * src/app/customer.ts and src/app/dashboard.ts) add their routes to it.
 */
import { Hono } from 'hono'
import { TrieRouter } from 'hono/router/trie-router'
import type { AppDeps, AppEnv, QrCache } from '../deps.js'
import { compressPages } from '../http/compress-pages.js'
import { NO_STORE_PATHS, noStore } from '../http/no-store.js'
import { requestLog } from '../http/request-log.js'
import { type SecurityPolicy, securityHeaders, securityPolicy } from '../http/security-headers.js'
import { describe } from '../lib/describe-error.js'
import { createLru, type Lru } from '../lib/lru.js'
import { notFoundPage, serverErrorPage } from '../routes/error-pages.js'
import { freshBrand } from '../routes/page.js'
import type { StaticPage } from '../routes/static-page.js'

/** Something that answers requests under `/_sim` (the built-in gateway simulator). */
export interface Mountable {
  /** `env` is the runtime's bindings: on Node, the incoming message a GET's body is read from. */
  fetch(request: Request, env?: unknown): Response | Promise<Response>
}

export type PaylinksApp = Hono<AppEnv>

export interface Shell {
  app: PaylinksApp
  security: SecurityPolicy
  pageCache: Lru<StaticPage>
}

export interface ShellOptions {
  simulator?: Mountable
  /** Routes answered ahead of the middleware (they log and set their headers themselves). */
  ahead?: (shell: Shell) => void
  /** The app's routes, behind the middleware. */
  routes: (app: PaylinksApp) => void
}

/** Builds an app: `ahead`'s routes, the middleware, the simulator at `/_sim` when given, `routes`. */
export function appShell(deps: AppDeps, options: ShellOptions): Shell {
  // Hono's default router (SmartRouter) tries RegExpRouter at the first request, which refuses
  // these routes (`/dashboard/links/:id/edit` beside `/dashboard/links/new`), then settles on the
  // trie router: naming it spares every start's first request that failed attempt.
  const app = new Hono<AppEnv>({ router: new TrieRouter() })
  // Enough for the links people are scanning right now.
  const qrCache: QrCache = createLru(500)
  const pageCache = createLru<StaticPage>(500)
  const security = securityPolicy(deps.config)
  const shell = { app, security, pageCache }

  options.ahead?.(shell)
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
  for (const path of NO_STORE_PATHS) app.use(path, noStore)
  // Pages read the stored branding first; the checkout reads its version with the link instead.
  for (const path of ['/r/*', '/terms', '/dashboard/*']) app.use(path, freshBrand)
  options.routes(app)
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
  return shell
}
