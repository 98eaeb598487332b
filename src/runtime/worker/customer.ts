/**
 * What the production Worker (src/runtime/worker/main.ts) serves: the customer side of Paylinks
 * (src/app/customer.ts) with `/dashboard` handed to the back-office Worker, and the first
 * request's code run while an isolate starts.
 */
import { createCustomerApp } from '../../app/customer.js'
import { handToDashboard } from './dashboard-link.js'
import type { WorkerOptions } from './handler.js'
import { warmFirstRequest } from './warm.js'

export const customerWorker: Pick<WorkerOptions, 'app' | 'warm'> = {
  app: (deps) => createCustomerApp(deps, { dashboard: { ahead: handToDashboard } }),
  warm: warmFirstRequest,
}
