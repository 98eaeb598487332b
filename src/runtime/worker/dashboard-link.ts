/**
 * How the production Worker hands its back office over: every request under `/dashboard` goes,
 * ahead of the middleware, to the back-office Worker (src/runtime/worker/dashboard.ts) through the
 * `DASHBOARD` service binding of wrangler.toml, with this Worker's configuration (its vars and
 * secrets: the back office has none of its own). The call stays inside Cloudflare; the back office
 * logs the request and sets its headers as the whole app does.
 */
import type { Shell } from '../../app/shell.js'
import { consoleLogger } from '../../log.js'
import { stringsOf, type WorkerEnv } from './handler.js'

/** The back-office Worker's entrypoint, as the service binding reaches it (Workers RPC). */
export interface DashboardService {
  serve(request: Request, vars: Record<string, string>): Promise<Response>
}

const MISSING =
  'The Paylinks back office is not deployed beside this Worker: deploy both with `npm run deploy:worker` (README, "Deploying to Cloudflare Workers").'

/** Routes `/dashboard` and everything under it to the back-office Worker. */
export function handToDashboard({ app }: Shell): void {
  const forward = (request: Request, env: WorkerEnv) => {
    const dashboard = env.DASHBOARD as DashboardService | undefined
    if (!dashboard) {
      consoleLogger({ level: 'error', event: 'dashboard_missing' })
      return new Response(MISSING, {
        status: 503,
        headers: { 'content-type': 'text/plain; charset=utf-8', 'retry-after': '60' },
      })
    }
    return dashboard.serve(request, stringsOf(env))
  }
  app.all('/dashboard', (c) => forward(c.req.raw, c.env as WorkerEnv))
  app.all('/dashboard/*', (c) => forward(c.req.raw, c.env as WorkerEnv))
}
