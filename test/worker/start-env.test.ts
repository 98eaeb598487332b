/**
 * A Worker given its bindings as its module is evaluated (`env` of `cloudflare:workers`, as
 * src/worker.ts does) builds the app then, without touching D1 (no I/O is allowed while an isolate
 * starts); its first request only reads the secrets. Run here on Node with a real local D1
 * (miniflare) whose statements are counted.
 */
import type { D1Database, ExecutionContext } from '@cloudflare/workers-types/index.ts'
import { describe, expect, it } from 'vitest'
import { createWorker, type WorkerEnv } from '../../src/worker-handler.js'
import { useLocalD1, WORKER_ADMIN_TOKEN } from './support.js'

const local = useLocalD1('start-env')

/** The local D1, counting the statements prepared through it. */
function countingD1(count: { statements: number }): D1Database {
  return new Proxy(local.d1(), {
    get(target, key) {
      const value = Reflect.get(target, key)
      if (key === 'prepare') count.statements++
      return typeof value === 'function' ? value.bind(target) : value
    },
  })
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
    const count = { statements: 0 }
    const env: WorkerEnv = { DB: countingD1(count), ...vars }
    const worker = createWorker({ startEnv: env })
    expect(count.statements).toBe(0)
    const res = await worker.fetch(new Request('https://pay.example.dz/healthz'), env, ctx)
    expect(res.status).toBe(200)
    expect(count.statements).toBeGreaterThan(0)
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
    const worker = createWorker({ startEnv: env })
    const res = await worker.fetch(new Request('https://pay.example.dz/healthz'), env, ctx)
    expect(res.status).toBe(503)
    expect(await res.text()).toContain('MERCHANT_ACCOUNT')
  })

  it('builds again for other bindings than those it started with', async () => {
    const worker = createWorker({ startEnv: { DB: local.d1(), ...vars, MERCHANT_ACCOUNT: '' } })
    const env: WorkerEnv = { DB: local.d1(), ...vars }
    const res = await worker.fetch(new Request('https://pay.example.dz/healthz'), env, ctx)
    expect(res.status).toBe(200)
  })
})
