/**
 * A Worker given its bindings as its module is evaluated (`env` of `cloudflare:workers`, as
 * src/runtime/worker/main.ts does) builds the app then, without touching D1 (no I/O is allowed while an isolate
 * starts; it may prepare statements, which is not I/O); its first request only reads the secrets.
 * Run here on Node with a real local D1 (miniflare) whose runs, batches and execs are counted.
 */
import type { D1Database, ExecutionContext } from '@cloudflare/workers-types/index.ts'
import { describe, expect, it } from 'vitest'
import { customerWorker } from '../../src/runtime/worker/customer.js'
import { createWorker, type WorkerEnv } from '../../src/runtime/worker/handler.js'
import { useLocalD1, WORKER_ADMIN_TOKEN } from './support.js'

const local = useLocalD1('start-env')

/** What reaches D1 (I/O): a statement run, a batch or an exec. Preparing and binding do not. */
const RUNS = new Set(['all', 'raw', 'run', 'first'])

/** `target` with its calls that reach D1 counted; statements it makes are counted too. */
function counting<T extends object>(target: T, count: { calls: number }): T {
  return new Proxy(target, {
    get(object, key) {
      const value = Reflect.get(object, key)
      if (typeof value !== 'function') return value
      return (...args: unknown[]) => {
        if (RUNS.has(String(key)) || key === 'batch' || key === 'exec') count.calls++
        const result = value.apply(object, args)
        // prepare() and bind() give statements, whose runs count too.
        return key === 'prepare' || key === 'bind' ? counting(result, count) : result
      }
    },
  })
}

/** The local D1, counting the calls that reach it. */
function countingD1(count: { calls: number }): D1Database {
  return counting(local.d1(), count)
}

const ctx = {
  waitUntil() {},
  passThroughOnException() {},
  props: {},
} as unknown as ExecutionContext

const vars = {
  GATEWAY_MODE: 'live',
  PUBLIC_URL: 'https://pay.example.dz',
  GATEWAY_SITE_URL: 'https://gateway.invalid',
  MERCHANT_ACCOUNT: 'GCAZI7YBLIDJWIVEL7ETNAZGPP3LC24NO6KAOBWZHUERXQ7M5BC52DLV',
  ADMIN_TOKEN: WORKER_ADMIN_TOKEN,
}

describe('a Worker started with its bindings', () => {
  it('builds without D1 at the start and serves from the first request', async () => {
    const count = { calls: 0 }
    const env: WorkerEnv = { DB: countingD1(count), ...vars }
    const worker = createWorker({ ...customerWorker, startEnv: env })
    // Let the start's warm-up settle: it may prepare statements, never run one.
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(count.calls).toBe(0)
    const res = await worker.fetch(new Request('https://pay.example.dz/healthz'), env, ctx)
    expect(res.status).toBe(200)
    expect(count.calls).toBeGreaterThan(0)
    const api = await worker.fetch(
      new Request('https://pay.example.dz/api/v1/links', {
        headers: { 'x-api-key': WORKER_ADMIN_TOKEN },
      }),
      env,
      ctx,
    )
    // The admin token's hash was read in before the first request reached the app.
    expect(api.status).toBe(200)
  })

  it('still names the settings to fix when the configuration at the start is wrong', async () => {
    const env: WorkerEnv = { DB: local.d1(), ...vars, MERCHANT_ACCOUNT: '' }
    const worker = createWorker({ ...customerWorker, startEnv: env })
    const res = await worker.fetch(new Request('https://pay.example.dz/healthz'), env, ctx)
    expect(res.status).toBe(503)
    expect(await res.text()).toContain('MERCHANT_ACCOUNT')
  })

  it('builds again for other bindings than those it started with', async () => {
    const worker = createWorker({
      ...customerWorker,
      startEnv: { DB: local.d1(), ...vars, MERCHANT_ACCOUNT: '' },
    })
    const env: WorkerEnv = { DB: local.d1(), ...vars }
    const res = await worker.fetch(new Request('https://pay.example.dz/healthz'), env, ctx)
    expect(res.status).toBe(200)
  })
})
