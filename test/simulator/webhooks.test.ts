import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { verifyGatewaySignature } from '../../src/client/index.js'
import { SIMULATOR_MERCHANT_ACCOUNT, SIMULATOR_PUBLIC_KEY_PEM } from '../../src/simulator/index.js'
import {
  type LooseJson,
  manualScheduler,
  type RunningSimulator,
  startReceiver,
  startSimulator,
  type WebhookReceiver,
} from './helpers.js'

const scheduler = manualScheduler()
let run: RunningSimulator
let receiver: WebhookReceiver

beforeAll(async () => {
  receiver = await startReceiver()
  run = await startSimulator({
    schedule: scheduler.schedule,
    webhookRetryDelaysMs: [1000, 5000, 30_000],
  })
})
afterAll(async () => {
  await run.close()
  await receiver.close()
})
afterEach(async () => {
  run.sim.faults.clear()
  await run.sim.flush()
  scheduler.tasks.length = 0
  receiver.received.length = 0
  receiver.answers.length = 0
})

/** Creates a transaction with a webhook URL and pays it, returning its card-network id. */
async function pay(webhookUrl = receiver.url, amount = '1500'): Promise<string> {
  const query = new URLSearchParams({
    account: SIMULATOR_MERCHANT_ACCOUNT,
    amount,
    full_name: 'A',
    phone: '1',
    email: 'a@b.dz',
    webhook_url: webhookUrl,
    redirect: 'no',
  })
  const created = (await (await fetch(`${run.url}/make-cib-transaction/?${query}`)).json()) as {
    cib_transaction_id: number
  }
  const id = String(created.cib_transaction_id)
  await run.sim.completePayment(id, 'approved')
  return id
}

const deliveries = async () =>
  (await (await fetch(`${run.url}/_inspect/webhooks.json`)).json()) as LooseJson[]
const sentIds = () => receiver.received.map((r) => JSON.parse(r.body).cib_transaction_id as string)

describe('webhook delivery', () => {
  it('delivers a signed event once to a 2xx receiver and records the receiver’s answer', async () => {
    const id = await pay()
    await run.sim.flush()
    expect(sentIds()).toEqual([id])
    const event = JSON.parse(receiver.received[0]!.body)
    expect(
      await verifyGatewaySignature(event.message, event.signature, SIMULATOR_PUBLIC_KEY_PEM),
    ).toBe(true)
    const [delivery] = await deliveries()
    expect(delivery).toMatchObject({
      cib_transaction_id: id,
      state: 'delivered',
      url: receiver.url,
    })
    expect(delivery!.attempts).toEqual([
      { at: expect.any(String), status: 200, error: null, body: 'thanks' },
    ])
    expect(scheduler.tasks).toHaveLength(0)
  })

  it('retries a non-2xx answer on the schedule until it is accepted', async () => {
    receiver.answers.push(500, 503)
    const id = await pay()
    await run.sim.flush()
    expect(receiver.received).toHaveLength(1)
    expect((await deliveries())[0]).toMatchObject({
      state: 'scheduled',
      next_attempt_at: expect.any(String),
    })
    expect(await scheduler.runAll()).toEqual([1000])
    expect(await scheduler.runAll()).toEqual([5000])
    expect(sentIds()).toEqual([id, id, id])
    const [delivery] = await deliveries()
    expect(delivery!.state).toBe('delivered')
    expect(delivery!.attempts.map((a: { status: number }) => a.status)).toEqual([500, 503, 200])
    expect(delivery!.attempts[0].body).toBe('refused with 500')
    expect(scheduler.tasks).toHaveLength(0)
  })

  it('gives up after the last retry and marks the delivery failed', async () => {
    receiver.answers.push(500, 500, 500, 500, 500)
    await pay()
    await run.sim.flush()
    expect(await scheduler.runAll()).toEqual([1000])
    expect(await scheduler.runAll()).toEqual([5000])
    expect(await scheduler.runAll()).toEqual([30_000])
    expect(scheduler.tasks).toHaveLength(0)
    expect(receiver.received).toHaveLength(4)
    expect((await deliveries())[0]!.state).toBe('failed')
  })

  it('records a receiver that cannot be reached and retries it', async () => {
    const closed = await startReceiver()
    await closed.close()
    await pay(closed.url)
    await run.sim.flush()
    const [delivery] = await deliveries()
    expect(delivery!.attempts[0]).toMatchObject({
      status: null,
      error: expect.stringMatching(/fetch failed/),
    })
    expect(delivery!.state).toBe('scheduled')
  })

  it('delivers through an injected deliver function (how Paylinks sends to itself in-process)', async () => {
    const seen: Request[] = []
    const local = await startSimulator({
      deliver: async (request) => {
        seen.push(request)
        return new Response('ok')
      },
    })
    try {
      const query = new URLSearchParams({
        account: SIMULATOR_MERCHANT_ACCOUNT,
        amount: '50',
        full_name: 'A',
        phone: '1',
        email: 'a@b.dz',
        webhook_url: 'http://localhost:8787/webhooks/gateway',
        redirect: 'no',
      })
      const created = (await (
        await fetch(`${local.url}/make-cib-transaction/?${query}`)
      ).json()) as { cib_transaction_id: number }
      await local.sim.completePayment(String(created.cib_transaction_id), 'declined')
      await local.sim.flush()
      expect(seen).toHaveLength(1)
      expect(seen[0]!.url).toBe('http://localhost:8787/webhooks/gateway')
      expect(seen[0]!.method).toBe('POST')
    } finally {
      await local.close()
    }
  })
})

describe('webhook faults', () => {
  it('never: records the delivery as dropped and sends nothing; off again, it sends', async () => {
    run.sim.faults.set({ webhooks: { never: true } })
    await pay()
    await run.sim.flush()
    expect(receiver.received).toHaveLength(0)
    expect((await deliveries())[0]).toMatchObject({
      state: 'dropped',
      note: 'never sent (fault)',
      attempts: [],
    })
    run.sim.faults.set({ webhooks: null })
    const id = await pay()
    await run.sim.flush()
    expect(sentIds()).toEqual([id])
  })

  it('duplicate: the same event arrives twice', async () => {
    run.sim.faults.set({ webhooks: { duplicate: true } })
    const id = await pay()
    await run.sim.flush()
    expect(sentIds()).toEqual([id, id])
    expect(receiver.received[0]!.body).toBe(receiver.received[1]!.body)
  })

  it('late: nothing until the scheduled delay has passed', async () => {
    run.sim.faults.set({ webhooks: { lateMs: 45_000 } })
    const id = await pay()
    await run.sim.flush()
    expect(receiver.received).toHaveLength(0)
    expect(await scheduler.runAll()).toEqual([45_000])
    expect(sentIds()).toEqual([id])
  })

  it('out of order: a batch of two arrives newest first', async () => {
    run.sim.faults.set({ webhooks: { outOfOrder: true } })
    const first = await pay()
    await Promise.resolve()
    expect(receiver.received).toHaveLength(0)
    expect((await deliveries())[0]!.state).toBe('held')
    const second = await pay()
    await run.sim.flush()
    expect(sentIds()).toEqual([second, first])
  })

  it('out of order: held deliveries go out after the next unfaulted one, or on flush', async () => {
    run.sim.faults.set({ webhooks: { outOfOrder: 3, times: 1 } })
    const held = await pay()
    const next = await pay()
    await run.sim.flush()
    expect(sentIds()).toEqual([next, held])
    run.sim.faults.set({ webhooks: { outOfOrder: true, times: 1 } })
    const alone = await pay()
    await run.sim.flush()
    expect(sentIds()).toEqual([next, held, alone])
  })

  it('times: a fault applies that many times and then switches itself off', async () => {
    run.sim.faults.set({ webhooks: { never: true, times: 2 } })
    await pay()
    await pay()
    expect(run.sim.faults.get().webhooks).toBeNull()
    const id = await pay()
    await run.sim.flush()
    expect(sentIds()).toEqual([id])
  })
})
