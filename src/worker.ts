/**
 * Paylinks on Cloudflare Workers, as `wrangler deploy` uploads it: binds D1 and the Worker's vars
 * and secrets to the same `createApp` as Node. It holds no gateway simulator (nothing here may
 * import src/simulator): sandbox and live modes only. `wrangler dev` runs src/worker-dev.ts.
 */
import { env } from 'cloudflare:workers'
import { createWorker, type WorkerEnv } from './worker-handler.js'
import { connectSmtp } from './worker-smtp-socket.js'

export type { WorkerEnv } from './worker-handler.js'

// The bindings are known as the module is evaluated: the app is built then, while the isolate
// starts, and the first request does not pay for it (docs/decisions/performance.md).
export default createWorker({ startEnv: env as WorkerEnv, smtpConnect: connectSmtp })
