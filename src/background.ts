/**
 * Work that runs after the response: webhook confirmation, reconciliation. On Workers it is handed
 * to ctx.waitUntil; on Node it runs in the process. Either way it is tracked, so a graceful stop
 * (and a test) can wait until nothing is left in flight.
 */
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

/** A short, secret-free description of an error for a log line. */
export function describe(error: unknown): string {
  if (error instanceof Error) return `${error.name}: ${error.message}`.slice(0, 300)
  return String(error).slice(0, 300)
}
