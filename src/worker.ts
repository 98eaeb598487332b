/**
 * Paylinks on Cloudflare Workers, as `wrangler deploy` uploads it: binds D1 and the Worker's vars
 * and secrets to the same `createApp` as Node. It holds no gateway simulator (nothing here may
 * import src/simulator): sandbox and live modes only. `wrangler dev` runs src/worker-dev.ts.
 */
import { createWorker } from './worker-handler.js'

export type { WorkerEnv } from './worker-handler.js'

export default createWorker()
