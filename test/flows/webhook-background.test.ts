/**
 * On Workers each request binds the background tracker to its own `ctx.waitUntil`, and the next
 * request replaces it: the webhook endpoint must keep the tracker of its own request even when the
 * body arrives after another request came in.
 */
import { afterEach, beforeEach, expect, it } from 'vitest'
import { type Background, createBackground } from '../../src/background.js'
import { silentLogger } from '../../src/log.js'
import { type Paylinks, startPaylinks } from '../support/harness.js'
import { makeLink } from '../support/links.js'
import { startPayment } from './support.js'

let p: Paylinks
beforeEach(async () => {
  p = await startPaylinks()
  p.simulator.faults.set({ webhooks: { never: true } })
})
afterEach(async () => {
  await p.close()
})

function tracker(): Background & { started: string[] } {
  const inner = createBackground(silentLogger)
  const started: string[] = []
  return {
    started,
    run(name, task) {
      started.push(name)
      inner.run(name, task)
    },
    later(name, delayMs, task) {
      started.push(name)
      inner.later(name, delayMs, task)
    },
    idle: () => inner.idle(),
    stop: () => inner.stop(),
  }
}

it('runs the confirmation on the tracker of the request that delivered the webhook', async () => {
  const link = await makeLink(p, { title: 'Tracker', amount: 1000 })
  const { tx } = await startPayment(p, link.slug)
  await p.simulator.completePayment(tx.cibTransactionId, 'approved')
  const delivery = [...p.simulator.state.deliveries.values()].find(
    (d) => d.cibTransactionId === tx.cibTransactionId,
  )
  const body = new TextEncoder().encode(JSON.stringify(delivery?.payload))
  let release: () => void = () => {}
  const held = new Promise<void>((resolve) => {
    release = resolve
  })
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      await held
      controller.enqueue(body)
      controller.close()
    },
  })
  const mine = tracker()
  const next = tracker()
  p.deps.background = mine
  const answer = p.app.request('/webhooks/gateway', {
    method: 'POST',
    body: stream,
    headers: { 'content-type': 'application/json' },
    duplex: 'half',
  } as RequestInit)
  // Another request comes in and binds its own tracker before this body has arrived.
  p.deps.background = next
  release()
  expect((await answer).status).toBe(200)
  await mine.idle()
  // The confirmation, and the outbound webhooks its change makes due, on this request's tracker.
  expect(mine.started).toEqual(['webhook_confirm', 'outbound_deliveries'])
  expect(next.started).toEqual([])
})
