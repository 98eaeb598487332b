/**
 * The Paylinks back office on Cloudflare Workers (wrangler.dashboard.toml, deployed as
 * `paylinks-dashboard` by `npm run deploy:worker`): the dashboard and the till, on the same D1 as
 * the production Worker (src/runtime/worker/main.ts), which hands it every request under `/dashboard` through
 * its `DASHBOARD` service binding (src/runtime/worker/dashboard-link.ts). It has no public address and no
 * vars or secrets of its own: each call brings the production Worker's configuration, and an
 * isolate keeps one app per configuration it has seen last.
 */
import { WorkerEntrypoint } from 'cloudflare:workers'
import { createDashboardApp } from '../../app/dashboard.js'
import type { DashboardService } from './dashboard-link.js'
import { createWorker, type WorkerEnv } from './handler.js'
import { connectSmtp } from './mail-transport.js'

export type { WorkerEnv } from './handler.js'

/** The isolate's back office, for the configuration it was built with. */
let current: { key: string; worker: ReturnType<typeof createWorker> } | undefined

function workerFor(vars: Record<string, string>) {
  const key = JSON.stringify(vars)
  // A new configuration (the production Worker deployed again with other vars or secrets) builds
  // the app again; until then every call shares one.
  if (current?.key !== key) {
    current = { key, worker: createWorker({ app: createDashboardApp, smtpConnect: connectSmtp }) }
  }
  return current.worker
}

/** What the production Worker's `DASHBOARD` binding calls. */
export class Dashboard extends WorkerEntrypoint<WorkerEnv> implements DashboardService {
  serve(request: Request, vars: Record<string, string>): Promise<Response> {
    const bindings: WorkerEnv = { ...vars, DB: this.env.DB }
    if (this.env.ASSETS) bindings.ASSETS = this.env.ASSETS
    return workerFor(vars).fetch(request, bindings, this.ctx)
  }
}

// Requests from the Internet do not reach it (`workers_dev = false`); anything else that calls it
// without the entrypoint gets nothing.
export default {
  fetch: () => new Response('Not found', { status: 404 }),
}
