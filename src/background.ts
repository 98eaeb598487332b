/**
 * Work that runs after the response: webhook confirmation, short re-checks, reconciliation. On
 * Workers it is handed to ctx.waitUntil; on Node it runs in the process. Either way it is tracked,
 * so a graceful stop (and a test) can wait until nothing is left in flight.
 */
import { describe } from './lib/describe-error.js'
import type { Logger } from './log.js'

export interface Background {
  /** Starts `task` without waiting for it; failures are logged, never thrown. */
  run(name: string, task: () => Promise<unknown>): void
  /**
   * Starts `task` like `run`, `delayMs` from now. Where the runtime has `waitUntil` (Workers) the
   * wait is handed to it, so the isolate lives until the task has run; elsewhere (Node) the timer
   * keeps no process alive and `idle` does not wait for it until it fires.
   */
  later(name: string, delayMs: number, task: () => Promise<unknown>): void
  /** Resolves when every task started so far (and any they start) has finished. */
  idle(): Promise<void>
  /**
   * Drops the `later` tasks not yet due, and any asked for from now on (a graceful stop: a task
   * still running may ask for one after this); tasks already running go on.
   */
  stop(): void
}

/** Sets a timer and answers how to clear it; the default is `setTimeout`, tests pass their own. */
export type SetTimer = (delayMs: number, fire: () => void) => () => void

const systemTimer: SetTimer = (delayMs, fire) => {
  const timer = setTimeout(fire, delayMs)
  // Node's timers keep the process alive unless told not to; a re-check is not worth that.
  ;(timer as { unref?: () => void }).unref?.()
  return () => clearTimeout(timer)
}

/** A tracker of background tasks; `waitUntil` (Workers) keeps the isolate alive for each. */
export function createBackground(
  log: Logger,
  waitUntil?: (p: Promise<unknown>) => void,
  setTimer: SetTimer = systemTimer,
): Background {
  const inFlight = new Set<Promise<unknown>>()
  const timers = new Set<() => void>()
  let stopped = false
  const run = (name: string, task: () => Promise<unknown>) => {
    const promise = Promise.resolve()
      .then(task)
      .catch((error: unknown) => {
        log({ level: 'error', event: 'background_failed', task: name, error: describe(error) })
      })
      .finally(() => inFlight.delete(promise))
    inFlight.add(promise)
    waitUntil?.(promise)
  }
  return {
    run,
    later(name, delayMs, task) {
      if (stopped) return
      if (!waitUntil) {
        const clear = setTimer(delayMs, () => {
          timers.delete(clear)
          run(name, task)
        })
        timers.add(clear)
        return
      }
      // The wait itself is background work here: a Worker whose request has answered runs no
      // timer unless a promise handed to waitUntil is still open. Set at once, so `stop` sees it.
      const due = new Promise<boolean>((resolve) => {
        const clear = setTimer(delayMs, () => {
          timers.delete(cancel)
          resolve(true)
        })
        const cancel = () => {
          clear()
          resolve(false)
        }
        timers.add(cancel)
      })
      run(name, async () => {
        if (await due) await task()
      })
    },
    async idle() {
      while (inFlight.size > 0) await Promise.allSettled([...inFlight])
    },
    stop() {
      stopped = true
      for (const clear of timers) clear()
      timers.clear()
    },
  }
}
