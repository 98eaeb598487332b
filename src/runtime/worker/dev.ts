/**
 * Paylinks on Workers for `wrangler dev` (`[env.dev]` of wrangler.toml, `npm run dev:worker`):
 * all of Paylinks in one Worker (the production Worker's two halves together), plus the built-in
 * gateway simulator at `/_sim`, served on localhost only.
 *
 * `PUBLIC_URL` left empty (as `[env.dev.vars]` ships it) is the address the first request came
 * to, so `wrangler dev --port N` gives links, return and webhook URLs on port N. Wrangler serves
 * on whatever port it was given, and the Worker cannot ask which: the request's own URL is the one
 * place it shows. Simulator mode then accepts it only on localhost, 127.0.0.1 or [::1] (a request
 * to any other host answers the usual 503 naming PUBLIC_URL), as it does a PUBLIC_URL that is set.
 */
import type { ExecutionContext, ScheduledController } from '@cloudflare/workers-types/index.ts'
import { createApp } from '../../app/index.js'
import { consoleLogger } from '../../log.js'
import * as simulator from '../../simulator/index.js'
import { createWorker, type WorkerEnv } from './handler.js'
import { connectSmtp } from './mail-transport.js'

export type { WorkerEnv } from './handler.js'

const worker = createWorker({
  app: createApp,
  loadSimulator: async () => simulator,
  smtpConnect: connectSmtp,
})

/**
 * The origin of the latest request. The isolate keeps the app its first successful start built
 * (a start that failed, a request to another host, is not kept), so this matters only until then.
 */
let latestOrigin: string | undefined

/** `env` with `PUBLIC_URL` filled in from `origin` when the var is empty or absent. */
export function withPublicUrl(env: WorkerEnv, origin: string | undefined): WorkerEnv {
  const set = typeof env.PUBLIC_URL === 'string' && env.PUBLIC_URL.trim() !== ''
  return set || origin === undefined ? env : { ...env, PUBLIC_URL: origin }
}

export default {
  fetch(request: Request, env: WorkerEnv, ctx: ExecutionContext) {
    latestOrigin = new URL(request.url).origin
    return worker.fetch(request, withPublicUrl(env, latestOrigin), ctx)
  },
  scheduled(event: ScheduledController, env: WorkerEnv, ctx: ExecutionContext) {
    const filled = withPublicUrl(env, latestOrigin)
    if (filled.PUBLIC_URL === undefined || filled.PUBLIC_URL === '') {
      // No request yet, so no address to put in links and webhooks: `npm run dev:worker` makes
      // one as soon as wrangler is ready, before anything can ask for a scheduled run.
      consoleLogger({
        level: 'error',
        event: 'scheduled_skipped',
        error:
          'PUBLIC_URL is empty and no request has come in yet: open the site once (or set PUBLIC_URL in .dev.vars), then run it again',
      })
      return Promise.resolve()
    }
    return worker.scheduled(event, filled, ctx)
  },
}
