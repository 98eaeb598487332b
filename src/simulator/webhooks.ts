/**
 * Webhook deliveries: each `cib.payment.updated` event is POSTed through `deliver`, retried on a
 * non-2xx answer or a network error after each of `retryDelaysMs` (through `schedule`), and every
 * attempt is recorded for the inspector. Webhook faults:
 * - `never`: the delivery is recorded as dropped and nothing is sent;
 * - `duplicate`: the event is delivered twice, as two deliveries;
 * - `lateMs`: the first attempt waits that long (through `schedule`);
 * - `outOfOrder`: deliveries are held back and released newest first when the batch is full
 *   (2, or the number given), when a delivery without this fault goes out (the held ones follow
 *   it), or on `flush()`.
 */
import type { Faults } from './faults.js'
import type { Ids } from './ids.js'
import type { CardTransaction, Delivery, SimState } from './state.js'

export interface WebhookDeps {
  state: SimState
  faults: Faults
  ids: Ids
  clock: () => number
  deliver: (request: Request) => Promise<Response>
  schedule: (delayMs: number, task: () => Promise<void>) => void
  waitUntil?: ((promise: Promise<unknown>) => void) | undefined
  retryDelaysMs: readonly number[]
  timeoutMs: number
}

export interface WebhookDispatcher {
  /** Queues one event for the transaction's webhook URL, applying the webhook fault if one is on. */
  dispatch(tx: CardTransaction, payload: Record<string, unknown>): void
  /** Releases held deliveries and waits until no attempt is in flight (scheduled ones stay scheduled). */
  flush(): Promise<void>
}

const BODY_EXCERPT = 2000

function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error)
  const cause = (error as { cause?: { code?: string; message?: string } }).cause
  const detail = cause?.code ?? cause?.message
  return detail ? `${error.message} (${detail})` : error.message
}

/** Creates the webhook dispatcher of a simulator instance. */
export function createWebhookDispatcher(deps: WebhookDeps): WebhookDispatcher {
  const inFlight = new Set<Promise<void>>()
  let held: Delivery[] = []
  let batchSize = 2

  const track = (work: Promise<void>): Promise<void> => {
    const promise = work.finally(() => inFlight.delete(promise))
    inFlight.add(promise)
    deps.waitUntil?.(promise)
    return promise
  }

  async function attempt(delivery: Delivery): Promise<void> {
    delivery.state = 'sending'
    delivery.nextAttemptAt = null
    const at = deps.clock()
    let status: number | null = null
    let error: string | null = null
    let body = ''
    try {
      const response = await deps.deliver(
        new Request(delivery.url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'user-agent': 'gateway-simulator/1' },
          body: JSON.stringify(delivery.payload),
          signal: AbortSignal.timeout(deps.timeoutMs),
        }),
      )
      status = response.status
      body = (await response.text()).slice(0, BODY_EXCERPT)
    } catch (caught) {
      error = describeError(caught)
    }
    delivery.attempts.push({ at, status, error, body })
    if (status !== null && status >= 200 && status < 300) {
      delivery.state = 'delivered'
      return
    }
    const delay = deps.retryDelaysMs[delivery.attempts.length - 1]
    if (delay === undefined) {
      delivery.state = 'failed'
      return
    }
    start(delivery, delay)
  }

  function start(delivery: Delivery, delayMs: number): void {
    if (delayMs <= 0) {
      void track(attempt(delivery))
      return
    }
    delivery.state = 'scheduled'
    delivery.nextAttemptAt = deps.clock() + delayMs
    // The task resolves when the attempt is over, so a scheduler can wait for it.
    deps.schedule(delayMs, () => track(attempt(delivery)))
  }

  function releaseHeld(): void {
    const batch = held.reverse()
    held = []
    for (const delivery of batch) start(delivery, 0)
  }

  return {
    dispatch(tx, payload) {
      const fault = deps.faults.takeWebhook()
      const copies = fault?.duplicate ? 2 : 1
      for (let copy = 0; copy < copies; copy++) {
        const notes: string[] = []
        if (copy > 0) notes.push('duplicate (fault)')
        if (fault?.never) notes.push('never sent (fault)')
        if (fault?.lateMs) notes.push(`late by ${fault.lateMs} ms (fault)`)
        if (fault?.outOfOrder) notes.push('out of order (fault)')
        const delivery: Delivery = {
          id: deps.ids.uuid(),
          transactionId: tx.transactionId,
          cibTransactionId: tx.cibTransactionId,
          url: tx.webhookUrl!,
          payload,
          state: fault?.never ? 'dropped' : 'scheduled',
          attempts: [],
          createdAt: deps.clock(),
          nextAttemptAt: null,
          note: notes.length ? notes.join('; ') : null,
        }
        deps.state.deliveries.set(delivery.id, delivery)
        if (fault?.never) continue
        if (fault?.outOfOrder) {
          delivery.state = 'held'
          batchSize = fault.outOfOrder === true ? 2 : fault.outOfOrder
          held.push(delivery)
          continue
        }
        start(delivery, fault?.lateMs ?? 0)
      }
      if (held.length >= batchSize || (held.length > 0 && !fault?.outOfOrder)) releaseHeld()
    },
    async flush() {
      releaseHeld()
      while (inFlight.size > 0) await Promise.allSettled([...inFlight])
    },
  }
}
