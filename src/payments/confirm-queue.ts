import { getPaymentById } from '../data/payments.js'
import type { ConfirmDeps, ConfirmQueue, ConfirmResult } from '../deps.js'
import {
  REDELIVERY_CHECK_INTERVAL_MS,
  WEBHOOK_RECHECK_DELAYS_MS,
} from '../domain/check-schedule.js'
import { confirmPayment } from './confirm.js'

export type { ConfirmQueue }

export interface ConfirmQueueOptions {
  /** Checks running at once, in all. */
  concurrency?: number
  /** The least time between two checks a redelivery asks for (`confirmIfDue`). */
  minIntervalMs?: number
  /** When `recheckSoon` checks again, counted from when it is asked. */
  recheckDelaysMs?: readonly number[]
}

type Slot = { running: Promise<ConfirmResult>; next?: Promise<ConfirmResult> | undefined }

// The per-payment times below are dropped once too old to matter, when the maps grow past this.
const PRUNE_ABOVE = 1024

/** A confirmation queue (see the module comment). */
export function createConfirmQueue(options: ConfirmQueueOptions = {}): ConfirmQueue {
  const concurrency = options.concurrency ?? 8
  const minIntervalMs = options.minIntervalMs ?? REDELIVERY_CHECK_INTERVAL_MS
  const delays = options.recheckDelaysMs ?? WEBHOOK_RECHECK_DELAYS_MS
  // A schedule whose timers a runtime dropped (a Worker past its waitUntil time) must not block
  // the next one for ever: past this long after it began it no longer counts.
  const scheduleLifeMs = (delays.at(-1) ?? 0) + 30_000
  const slots = new Map<string, Slot>()
  const askedAt = new Map<string, number>()
  const rechecking = new Map<string, number>()
  let active = 0
  const waiting: Array<() => void> = []

  async function check(deps: ConfirmDeps, paymentId: string): Promise<ConfirmResult> {
    if (active >= concurrency) await new Promise<void>((resolve) => waiting.push(resolve))
    else active++
    try {
      const payment = await getPaymentById(deps.db, paymentId)
      if (!payment) throw new Error(`No payment ${paymentId}`)
      return await confirmPayment(deps, payment, 'webhook')
    } finally {
      const wake = waiting.shift()
      if (wake) wake()
      else active--
    }
  }

  function confirm(deps: ConfirmDeps, paymentId: string): Promise<ConfirmResult> {
    remember(askedAt, paymentId, deps.clock(), minIntervalMs)
    const slot = slots.get(paymentId)
    if (slot) {
      slot.next ??= slot.running.catch(() => {}).then(() => check(deps, paymentId))
      return slot.next
    }
    const fresh: Slot = { running: check(deps, paymentId) }
    slots.set(paymentId, fresh)
    const advance = (): void => {
      if (fresh.next) {
        fresh.running = fresh.next
        fresh.next = undefined
        fresh.running.then(advance, advance)
      } else slots.delete(paymentId)
    }
    fresh.running.then(advance, advance)
    return fresh.running
  }

  return {
    confirm,
    async confirmIfDue(deps, paymentId) {
      const last = askedAt.get(paymentId)
      if (last !== undefined && deps.clock() - last < minIntervalMs) return null
      return confirm(deps, paymentId)
    },
    recheckSoon(deps, background, paymentId) {
      const now = deps.clock()
      const since = rechecking.get(paymentId)
      if (since !== undefined && now - since < scheduleLifeMs) return
      remember(rechecking, paymentId, now, scheduleLifeMs)
      const done = () => {
        if (rechecking.get(paymentId) === now) rechecking.delete(paymentId)
      }
      const step = (i: number, previous: number): void => {
        const at = delays[i]
        if (at === undefined) {
          done()
          return
        }
        background.later('webhook_recheck', at - previous, async () => {
          let pending = false
          try {
            pending = (await confirm(deps, paymentId)).payment.status === 'pending'
          } finally {
            if (pending) step(i + 1, at)
            else done()
          }
        })
      }
      step(0, 0)
    },
  }
}

/**
 * Notes `now` for `id`, newest last (a Map keeps insertion order), and drops from the front the
 * entries older than `keepMs` once there are many.
 */
function remember(times: Map<string, number>, id: string, now: number, keepMs: number): void {
  times.delete(id)
  times.set(id, now)
  if (times.size <= PRUNE_ABOVE) return
  for (const [key, at] of times) {
    if (now - at < keepMs) break
    times.delete(key)
  }
}
