/**
 * Work that runs after the response: webhook confirmation, reconciliation. On Workers it is handed
 * to ctx.waitUntil; on Node it runs in the process. Either way it is tracked, so a graceful stop
 * (and a test) can wait until nothing is left in flight.
 */
import { stripUrlQueries } from './client/core/redact.js'
import type { Logger } from './log.js'

export interface Background {
  /** Starts `task` without waiting for it; failures are logged, never thrown. */
  run(name: string, task: () => Promise<unknown>): void
  /** Resolves when every task started so far (and any they start) has finished. */
  idle(): Promise<void>
}

/** A tracker of background tasks; `waitUntil` (Workers) keeps the isolate alive for each. */
export function createBackground(
  log: Logger,
  waitUntil?: (p: Promise<unknown>) => void,
): Background {
  const inFlight = new Set<Promise<unknown>>()
  return {
    run(name, task) {
      const promise = Promise.resolve()
        .then(task)
        .catch((error: unknown) => {
          log({ level: 'error', event: 'background_failed', task: name, error: describe(error) })
        })
        .finally(() => inFlight.delete(promise))
      inFlight.add(promise)
      waitUntil?.(promise)
    },
    async idle() {
      while (inFlight.size > 0) await Promise.allSettled([...inFlight])
    },
  }
}

/**
 * A short description of an error for a log line or `payments.error_reason`. Any URL in it loses
 * its query, which may carry a customer's name, phone or e-mail: the gateway client's own errors
 * never quote one, and this keeps any other error (a runtime's, a library's) to the same rule.
 */
export function describe(error: unknown): string {
  const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error)
  return stripUrlQueries(text).slice(0, 300)
}
