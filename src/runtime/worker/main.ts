/**
 * Paylinks on Cloudflare Workers, as `wrangler deploy` uploads it: binds D1 and the Worker's vars
 * and secrets to the customer side of the same app as Node (src/app/customer.ts): checkout,
 * receipts, QR codes, the gateway's webhooks, the merchant API and the Cron trigger. The back
 * office under `/dashboard` is a second Worker (src/runtime/worker/dashboard.ts) reached through the
 * `DASHBOARD` service binding, so that neither upload carries the other's code
 * (docs/decisions/performance.md, "The Worker upload"). It holds no gateway simulator (nothing
 * here may import src/simulator): sandbox and live modes only. `wrangler dev` runs
 * src/runtime/worker/dev.ts.
 */
import { env } from 'cloudflare:workers'
import { customerWorker } from './customer.js'
import { createWorker, type WorkerEnv } from './handler.js'
import { connectSmtp } from './mail-transport.js'

export type { WorkerEnv } from './handler.js'

// The bindings are known as the module is evaluated: the app is built then, while the isolate
// starts, and the first request does not pay for it (docs/decisions/performance.md).
export default createWorker({
  ...customerWorker,
  startEnv: env as WorkerEnv,
  smtpConnect: connectSmtp,
})
