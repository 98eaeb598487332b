/**
 * How many password checks made before sign-in run at once. Each is a PBKDF2 of 100,000 to
 * 600,000 iterations (docs/decisions/passwords.md); the guessing limits bound them per account and
 * per address, but a burst from many addresses for many e-mails would still fill every core. So
 * this process (or Workers isolate) runs a few at a time, keeps a short queue, and refuses past it
 * (the caller answers 429 with Retry-After): a queue without end would only make every sign-in
 * wait, and the memory of held requests grow.
 *
 * Plain promises, no Node API: on Workers it bounds the checks one isolate holds at once (the
 * platform bounds each request's CPU; this keeps an isolate's concurrent requests from piling up
 * behind one another's hashing).
 */

/** Checks running at once (Node runs PBKDF2 on its 4 libuv threads: two leave room for the rest). */
export const PASSWORD_CHECKS = { running: 2, waiting: 16 } as const

/** What `run` answers when the queue is full: nothing was done. */
export const BUSY = Symbol('busy')

/** A counting semaphore with a bounded queue. */
export class WorkLimit {
  private active = 0
  private readonly queue: (() => void)[] = []

  constructor(
    readonly running: number,
    readonly waiting: number,
  ) {}

  /** How many wait for a place now. */
  get queued(): number {
    return this.queue.length
  }

  /** Runs `work` when a place is free, or answers BUSY at once when the queue is full too. */
  async run<T>(work: () => Promise<T>): Promise<T | typeof BUSY> {
    if (this.active >= this.running) {
      if (this.queue.length >= this.waiting) return BUSY
      // The place is handed over by the one finishing (active stays counted), so none overtakes.
      await new Promise<void>((resolve) => this.queue.push(resolve))
    } else {
      this.active++
    }
    try {
      return await work()
    } finally {
      const next = this.queue.shift()
      if (next) next()
      else this.active--
    }
  }
}

/** The process's (or isolate's) limit on password checks before sign-in. */
export const passwordChecks = new WorkLimit(PASSWORD_CHECKS.running, PASSWORD_CHECKS.waiting)
