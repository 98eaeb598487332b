/**
 * Runs the sender without overlapping itself: `kick()` after a change (the delivery goes out at
 * once, as background work), `run()` from a timer (Node) or the Cron trigger (Workers) for what
 * falls due later. A kick while a run is going makes one more run after it.
 */
import type { Background } from '../background.js'
import type { Outbound, SendReport } from '../deps.js'
import { deliverDue, type OutboxChannel, type OutboxDeps } from './sender.js'

/**
 * The outbox sender of this app over its channels (outbound webhooks, and mail where it is sent);
 * `background()` is read at each kick (Workers swap it).
 */
export function createOutbound(
  deps: OutboxDeps,
  channels: readonly OutboxChannel[],
  background: () => Background,
): Outbound {
  let running: Promise<SendReport> | undefined
  let again = false
  const run = (): Promise<SendReport> => {
    if (running) {
      again = true
      return running
    }
    running = (async () => {
      const total: SendReport = { attempted: 0, delivered: 0 }
      do {
        again = false
        const report = await deliverDue(deps, channels)
        total.attempted += report.attempted
        total.delivered += report.delivered
      } while (again)
      return total
    })().finally(() => {
      running = undefined
    })
    return running
  }
  return {
    kick: (on) => (on ?? background()).run('outbound_deliveries', run),
    run,
  }
}
