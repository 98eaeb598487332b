/**
 * Paylinks on Workers for `wrangler dev` (`[env.dev]` of wrangler.toml, `npm run dev:worker`):
 * all of Paylinks in one Worker (the production Worker's two halves together), plus the built-in
 * gateway simulator at `/_sim`, served on localhost only.
 */
import { createApp } from '../../app/index.js'
import * as simulator from '../../simulator/index.js'
import { createWorker } from './handler.js'
import { connectSmtp } from './mail-transport.js'

export type { WorkerEnv } from './handler.js'

export default createWorker({
  app: createApp,
  loadSimulator: async () => simulator,
  smtpConnect: connectSmtp,
})
