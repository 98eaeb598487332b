import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import {
  SIMULATOR_API_KEY,
  SIMULATOR_MERCHANT_ACCOUNT,
  SIMULATOR_SECRET_SEED,
} from '../../src/simulator/index.js'
import { type RunningSimulator, startSimulator } from './helpers.js'

/** An injected sleep: records each wait; waits forever (until aborted) when `hold` is set. */
const sleeps: { ms: number; signal?: AbortSignal }[] = []
let hold = false
const sleep = (ms: number, signal?: AbortSignal) => {
  sleeps.push({ ms, signal })
  if (!hold) return Promise.resolve()
  return new Promise<void>((_, reject) =>
    signal?.addEventListener('abort', () => reject(signal.reason), { once: true }),
  )
}

let run: RunningSimulator
beforeAll(async () => {
  run = await startSimulator({ sleep, hangCapMs: 45_000 })
})
afterAll(() => run.close())
afterEach(() => {
  run.sim.faults.clear()
  sleeps.length = 0
  hold = false
})

const makeUrl = () =>
  `${run.url}/make-cib-transaction/?${new URLSearchParams({ account: SIMULATOR_MERCHANT_ACCOUNT, amount: '100', full_name: 'A', phone: '1', email: 'a@b.dz', redirect: 'no' })}`
const historyUrl = () =>
  `${run.url}/services/operation-history/?encrypted_sk=${SIMULATOR_SECRET_SEED}`
const v1 = (path: string) =>
  fetch(`${run.url}/api/v1${path}`, { headers: { 'x-api-key': SIMULATOR_API_KEY } })

describe('endpoint faults', () => {
  it('status5xx: answers that status on the endpoint only, and normally once switched off', async () => {
    run.sim.faults.set({ endpoints: { 'make-cib-transaction': { status5xx: 503 } } })
    expect((await fetch(makeUrl())).status).toBe(503)
    expect((await fetch(historyUrl())).status).toBe(200)
    run.sim.faults.set({ endpoints: { 'make-cib-transaction': null } })
    expect((await fetch(makeUrl())).status).toBe(200)
  })

  it('status5xx with times: fails that many calls, then recovers by itself', async () => {
    run.sim.faults.set({ endpoints: { 'operation-history': { status5xx: 502, times: 2 } } })
    expect((await fetch(historyUrl())).status).toBe(502)
    expect((await fetch(historyUrl())).status).toBe(502)
    expect((await fetch(historyUrl())).status).toBe(200)
    expect(run.sim.faults.get().endpoints).toEqual({})
  })

  it('matches `v1/*` for every /v1 endpoint and `*` for all', async () => {
    run.sim.faults.set({ endpoints: { 'v1/*': { status5xx: 500 } } })
    expect((await v1('/products')).status).toBe(500)
    expect((await v1('/operations')).status).toBe(500)
    expect((await fetch(historyUrl())).status).toBe(200)
    run.sim.faults.clear()
    run.sim.faults.set({ endpoints: { '*': { status5xx: 504 } } })
    expect((await fetch(historyUrl())).status).toBe(504)
    expect((await v1('/products')).status).toBe(504)
    expect((await fetch(`${run.url}/gateway-public-key.pem`)).status).toBe(200)
  })

  it('latencyMs: waits that long (through the injected sleep) before answering normally', async () => {
    run.sim.faults.set({ endpoints: { 'cib-transaction-check': { latencyMs: 2500 } } })
    const res = await fetch(`${run.url}/cib-transaction-check/?order_number=1`)
    expect(res.status).toBe(404)
    expect(sleeps.map((s) => s.ms)).toEqual([2500])
    run.sim.faults.clear()
    await fetch(`${run.url}/cib-transaction-check/?order_number=1`)
    expect(sleeps).toHaveLength(1)
  })

  it('hang: holds the request until the client aborts it', async () => {
    hold = true
    run.sim.faults.set({ endpoints: { operation_post: { hang: true } } })
    const controller = new AbortController()
    const pending = fetch(`${run.url}/services/operation_post`, {
      method: 'POST',
      body: '{}',
      signal: controller.signal,
    })
    await expect.poll(() => sleeps.length).toBe(1)
    expect(sleeps[0]!.ms).toBe(45_000)
    controller.abort()
    await expect(pending).rejects.toThrow(/abort/i)
    await expect.poll(() => sleeps[0]!.signal?.aborted).toBe(true)
  })

  it('hang: gives up with a 504 after the cap when nobody aborts', async () => {
    run.sim.faults.set({ endpoints: { operation_post: { hang: true } } })
    const res = await fetch(`${run.url}/services/operation_post`, { method: 'POST', body: '{}' })
    expect(res.status).toBe(504)
    expect(sleeps.map((s) => s.ms)).toEqual([45_000])
  })

  it('malformedJson: a 200 whose JSON body is cut short, then whole again when off', async () => {
    run.sim.faults.set({ endpoints: { 'v1/products': { malformedJson: true } } })
    const res = await v1('/products')
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toMatch(/application\/json/)
    const text = await res.text()
    expect(() => JSON.parse(text)).toThrow()
    expect(text.startsWith('{"success":true')).toBe(true)
    run.sim.faults.clear()
    expect(await (await v1('/products')).json()).toMatchObject({ success: true })
  })
})

describe('the /_faults endpoint', () => {
  it('sets, shows and clears faults over HTTP', async () => {
    const set = await fetch(`${run.url}/_faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        endpoints: { get_products: { status5xx: 500, times: 3 } },
        webhooks: { duplicate: true },
      }),
    })
    expect(set.status).toBe(200)
    const current = await (await fetch(`${run.url}/_faults`)).json()
    expect(current).toEqual({
      endpoints: { get_products: { status5xx: 500, times: 3 } },
      webhooks: { duplicate: true },
    })
    const cleared = await fetch(`${run.url}/_faults`, { method: 'DELETE' })
    expect(await cleared.json()).toEqual({ endpoints: {}, webhooks: null })
  })

  it('refuses a fault it does not know or a bad value, changing nothing', async () => {
    for (const body of [
      { endpoints: { x: { status5xx: 404 } } },
      { webhooks: { sometimes: true } },
      { endpoints: { x: { latencyMs: -1 } } },
    ]) {
      const res = await fetch(`${run.url}/_faults`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      })
      expect(res.status).toBe(400)
    }
    expect((await fetch(`${run.url}/_faults`, { method: 'POST', body: '{' })).status).toBe(400)
    expect(run.sim.faults.get()).toEqual({ endpoints: {}, webhooks: null })
  })
})
