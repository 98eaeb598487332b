/**
 * A clock and timers that move only when the test moves them: `advance(ms)` moves the clock and
 * fires, in order, each timer that falls due on the way. Pass `clock` to the harness and build a
 * background tracker with `setTimer`.
 */
import type { SetTimer } from '../../src/background.js'

/** The tests' usual start: 2026-01-15 10:00 UTC (11:00 in Algiers). */
export const T0 = Date.UTC(2026, 0, 15, 10, 0, 0)

export interface ManualTime {
  clock: () => number
  setTimer: SetTimer
  /** Timers set and not yet fired or cleared. */
  pending(): number
  /** Moves the clock `ms` forward, firing what falls due (each at its own time). */
  advance(ms: number): void
}

/** Manual time starting at `start` (ms since the epoch). */
export function manualTime(start: number): ManualTime {
  let now = start
  let seq = 0
  const timers: { at: number; seq: number; fire: () => void }[] = []
  return {
    clock: () => now,
    setTimer(delayMs, fire) {
      const timer = { at: now + Math.max(0, delayMs), seq: seq++, fire }
      timers.push(timer)
      return () => {
        const i = timers.indexOf(timer)
        if (i >= 0) timers.splice(i, 1)
      }
    },
    pending: () => timers.length,
    advance(ms) {
      const end = now + ms
      for (;;) {
        timers.sort((a, b) => a.at - b.at || a.seq - b.seq)
        const next = timers[0]
        if (!next || next.at > end) break
        timers.shift()
        now = next.at
        next.fire()
      }
      now = end
    },
  }
}
