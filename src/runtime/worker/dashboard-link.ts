/**
 * How the production Worker hands its back office over: every request under `/dashboard` goes,
 * ahead of the middleware, to the back-office Worker (src/runtime/worker/dashboard.ts) through the
 * `DASHBOARD` service binding of wrangler.toml, with this Worker's configuration (its vars and
 * secrets: the back office has none of its own). The call stays inside Cloudflare; the back office
 * logs the request and sets its headers as the whole app does.
 */
import type { Shell } from '../../app/shell.js'
import { describe } from '../../lib/describe-error.js'
import { consoleLogger } from '../../log.js'
import { stringsOf, type WorkerEnv } from './handler.js'

/** The back-office Worker's entrypoint, as the service binding reaches it (Workers RPC). */
export interface DashboardService {
  serve(request: Request, vars: Record<string, string>): Promise<Response>
}

const MISSING =
  'The Paylinks back office (the Worker paylinks-dashboard) does not answer beside this Worker. On Cloudflare, deploy both with `npm run deploy:worker`; on this computer, start both with `npm run prod:worker` (README, "Deploying to Cloudflare Workers").'

/** The 503 of a back office that is not there, as a start's missing settings answer (handler.ts). */
function missing(error?: unknown): Response {
  consoleLogger({
    level: 'error',
    event: 'dashboard_missing',
    ...(error === undefined ? {} : { error: describe(error) }),
  })
  return new Response(MISSING, {
    status: 503,
    headers: { 'content-type': 'text/plain; charset=utf-8', 'retry-after': '60' },
  })
}

/** Routes `/dashboard` and everything under it to the back-office Worker. */
export function handToDashboard({ app }: Shell): void {
  const forward = async (request: Request, env: WorkerEnv) => {
    const dashboard = env.DASHBOARD as DashboardService | undefined
    if (!dashboard) return missing()
    // The back office answers every request itself, its errors included (a 500 page, or the 503
    // of a start that failed): a call that throws never reached it. `wrangler dev` of
    // wrangler.toml alone binds DASHBOARD to a stand-in that throws `Worker "paylinks-dashboard"
    // not found`, and a deployed binding whose Worker is gone fails the same way.
    try {
      return await dashboard.serve(request, stringsOf(env))
    } catch (error) {
      return missing(error)
    }
  }
  app.all('/dashboard', (c) => forward(c.req.raw, c.env as WorkerEnv))
  app.all('/dashboard/*', (c) => forward(c.req.raw, c.env as WorkerEnv))
}
