/**
 * Paylinks on Cloudflare Workers: binds D1 and the Worker's vars and secrets to the same
 * `createApp` as Node. `fetch` serves the app (and the built-in simulator in simulator mode);
 * `scheduled` (the Cron trigger of wrangler.toml) runs the reconciler.
 */
import type {
  D1Database,
  ExecutionContext,
  ScheduledController,
} from '@cloudflare/workers-types/index.ts'
import { drizzle } from 'drizzle-orm/d1'
import * as schema from '../db/schema.js'
import { createApp } from './app.js'
import { createBackground } from './background.js'
import { type Assembled, assemble } from './bootstrap.js'
import { ConfigError, parseConfig } from './config.js'
import { consoleLogger } from './log.js'
import { reconcile } from './payments/reconcile.js'

/** The Worker's bindings: the D1 database, and the configuration names of product.md as vars and secrets. */
export interface WorkerEnv {
  DB: D1Database
  [name: string]: unknown
}

interface Paylinks {
  assembled: Assembled
  app: ReturnType<typeof createApp>
}

// The one module-level cache: an isolate serves many requests, and parsing the configuration,
// reading the secrets from D1 and building the app once per isolate keeps each request cheap.
// Nothing request-specific is kept in it.
let paylinks: Promise<Paylinks> | undefined
// The request (or Cron event) that started last. Only the built-in simulator, which is created
// once per isolate, reaches `ctx.waitUntil` through it (see `forwardWaitUntil`).
let latest: ExecutionContext | undefined

/**
 * Hands background work of the built-in simulator (webhook deliveries) to the latest request's
 * `ctx.waitUntil`. Workers have no way to ask which request is running, so with requests in
 * flight at the same time it may pick another one; simulator mode is for one developer under
 * `wrangler dev`, where that does not happen. The app's own background work is bound exactly,
 * per request, in `useContext`.
 */
const forwardWaitUntil = (promise: Promise<unknown>) => latest?.waitUntil(promise)

function build(env: WorkerEnv): Promise<Paylinks> {
  const strings = Object.fromEntries(
    Object.entries(env).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
  )
  const config = parseConfig(strings)
  return assemble({
    db: drizzle(env.DB, { schema }),
    config,
    log: consoleLogger,
    clientIp: (c) => c.req.header('cf-connecting-ip') ?? 'unknown',
    waitUntil: forwardWaitUntil,
  }).then((assembled) => {
    const app = createApp(
      assembled.deps,
      assembled.simulator ? { simulator: assembled.simulator.app } : {},
    )
    assembled.bindApp(app)
    if (assembled.newAdminToken) {
      // Workers have no terminal: the log stream (wrangler dev's console, `wrangler tail`) is
      // the only place this token is ever shown. Setting the ADMIN_TOKEN secret avoids it.
      console.log(
        `Paylinks admin token (shown once, keep it): ${assembled.newAdminToken} — it logs into ${config.publicUrl}/dashboard and is the X-API-Key of the merchant API.`,
      )
    }
    return { assembled, app }
  })
}

async function load(env: WorkerEnv): Promise<Paylinks> {
  paylinks ??= build(env)
  try {
    return await paylinks
  } catch (error) {
    // A failed start is not kept: the next request tries again (a secret may have been added).
    paylinks = undefined
    throw error
  }
}

/**
 * Binds the app's background work (webhook confirmation) to this request's `ctx.waitUntil`.
 * createApp's first middleware copies every dependency into `c.var` synchronously when the
 * request enters the app, before anything is awaited (and the webhook endpoint, which runs ahead
 * of it, takes the tracker the same way), so the request keeps the tracker set here even when
 * another request replaces it a moment later.
 */
function useContext({ assembled }: Paylinks, ctx: ExecutionContext): void {
  latest = ctx
  assembled.deps.background = createBackground(consoleLogger, (promise) => ctx.waitUntil(promise))
}

function startFailure(error: unknown): Response {
  const detail = error instanceof ConfigError ? error.message : String(error)
  consoleLogger({ level: 'error', event: 'start_failed', error: detail.slice(0, 2000) })
  return new Response(
    'Paylinks cannot start: its configuration is incomplete or wrong. The reason is in the Worker logs (wrangler tail).',
    { status: 503, headers: { 'content-type': 'text/plain; charset=utf-8', 'retry-after': '60' } },
  )
}

export default {
  async fetch(request: Request, env: WorkerEnv, ctx: ExecutionContext): Promise<Response> {
    let instance: Paylinks
    try {
      instance = await load(env)
    } catch (error) {
      return startFailure(error)
    }
    useContext(instance, ctx)
    return instance.app.fetch(request, env, ctx)
  },

  async scheduled(_event: ScheduledController, env: WorkerEnv, ctx: ExecutionContext) {
    const work = load(env).then((instance) => {
      useContext(instance, ctx)
      return reconcile(instance.assembled.deps)
    })
    ctx.waitUntil(
      work.then(
        (result) => consoleLogger({ event: 'reconciled', ...result }),
        (error) =>
          consoleLogger({ level: 'error', event: 'reconcile_failed', error: String(error) }),
      ),
    )
  },
}
