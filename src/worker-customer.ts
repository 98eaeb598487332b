/**
 * What the production Worker (src/worker.ts) serves: the customer side of Paylinks
 * (src/app-customer.ts) with `/dashboard` handed to the back-office Worker, and the first
 * request's code run while an isolate starts.
 */
import { createCustomerApp } from './app-customer.js'
import { handToDashboard } from './worker-dashboard-link.js'
import type { WorkerOptions } from './worker-handler.js'
import { warmFirstRequest } from './worker-warm.js'

export const customerWorker: Pick<WorkerOptions, 'app' | 'warm'> = {
  app: (deps) => createCustomerApp(deps, { dashboard: { ahead: handToDashboard } }),
  warm: warmFirstRequest,
}
