/**
 * A Worker isolate whose start never settles (a D1 call that never answers) must not hang every
 * later request: each request waits at most the bound, gets a 503, and a later request starts
 * over. The handlers run here on Node with a real local D1 (miniflare), an injected clock, and a
 * D1 that hangs on demand — the one fault no real D1 can be asked for.
 */
import type { D1Database, ExecutionContext } from '@cloudflare/workers-types/index.ts'
import { describe, expect, it } from 'vitest'
import { createApp } from '../../src/app/index.js'
import { createWorker, type WorkerEnv } from '../../src/runtime/worker/handler.js'
import { useLocalD1, WORKER_ADMIN_TOKEN } from './support.js'

const BOUND_MS = 10_000
const local = useLocalD1('start')

/** A clock the test moves by hand, and the timers that wait on it. */
function manualTime() {
  let now = 0
  const timers = new Set<{ at: number; fire: () => void }>()
  return {
    clock: () => now,
    wait(ms: number, signal: AbortSignal) {
      return new Promise<void>((resolve) => {
        const timer = { at: now + ms, fire: resolve }
        timers.add(timer)
        signal.addEventListener('abort', () => timers.delete(timer))
      })
    },
    advance(ms: number) {
      now += ms
      for (const timer of [...timers])
        if (timer.at <= now) {
          timers.delete(timer)
          timer.fire()
        }
    },
  }
}

/** The D1 binding, or, while `hanging`, one whose every statement never answers. */
function faultyD1(state: { hanging: boolean }): D1Database {
  const never = new Promise<never>(() => {})
  const statement: object = new Proxy(
    {},
    { get: (_target, key) => (key === 'bind' ? () => statement : () => never) },
  )
  return new Proxy(local.d1(), {
    get(target, key) {
      if (state.hanging && (key === 'prepare' || key === 'batch' || key === 'exec'))
        return key === 'prepare' ? () => statement : () => never
      const value = Reflect.get(target, key)
      return typeof value === 'function' ? value.bind(target) : value
    },
  })
}

const ctx = {
  waitUntil() {},
  passThroughOnException() {},
  props: {},
} as unknown as ExecutionContext

/** Lets every pending promise callback run (no time passes on the manual clock). */
const settle = () => new Promise((resolve) => setImmediate(resolve))

describe('the Worker start', () => {
  it('answers 503 once the bound has passed when its start hangs, and a later request starts over', async () => {
    const time = manualTime()
    const db = { hanging: true }
    const env: WorkerEnv = {
      DB: faultyD1(db),
      GATEWAY_MODE: 'live',
      PUBLIC_URL: 'https://pay.example.dz',
      GATEWAY_SITE_URL: 'https://gateway.invalid',
      MERCHANT_ACCOUNT: 'GCAZI7YBLIDJWIVEL7ETNAZGPP3LC24NO6KAOBWZHUERXQ7M5BC52DLV',
      ADMIN_TOKEN: WORKER_ADMIN_TOKEN,
    }
    const worker = createWorker({
      app: createApp,
      startTimeoutMs: BOUND_MS,
      clock: time.clock,
      wait: time.wait,
    })
    const health = () => worker.fetch(new Request('https://pay.example.dz/healthz'), env, ctx)

    const answered: Response[] = []
    const first = health().then((res) => answered.push(res))
    time.advance(4_000)
    await settle()
    const second = health().then((res) => answered.push(res))
    time.advance(BOUND_MS - 4_000 - 1)
    await settle()
    expect(answered).toEqual([])

    // The bound counts from the start: the request that came later is not held any longer.
    time.advance(1)
    await Promise.all([first, second])
    expect(answered.map((res) => res.status)).toEqual([503, 503])
    expect(answered[0]!.headers.get('retry-after')).toBe('5')

    // The hung start is dropped: the next request starts again, and this time D1 answers.
    db.hanging = false
    const res = await health()
    expect(res.status).toBe(200)
    expect(await res.json()).toMatchObject({ mode: 'live' })
  })

  it('keeps a start that settled in time for every later request', async () => {
    const time = manualTime()
    let prepared = 0
    const counting = new Proxy(local.d1(), {
      get(target, key) {
        if (key === 'prepare') prepared++
        const value = Reflect.get(target, key)
        return typeof value === 'function' ? value.bind(target) : value
      },
    })
    const env: WorkerEnv = {
      DB: counting,
      GATEWAY_MODE: 'sandbox',
      MERCHANT_ACCOUNT: 'GCAZI7YBLIDJWIVEL7ETNAZGPP3LC24NO6KAOBWZHUERXQ7M5BC52DLV',
      ADMIN_TOKEN: WORKER_ADMIN_TOKEN,
    }
    const worker = createWorker({
      app: createApp,
      startTimeoutMs: BOUND_MS,
      clock: time.clock,
      wait: time.wait,
    })
    const health = () => worker.fetch(new Request('http://localhost/healthz'), env, ctx)
    expect((await health()).status).toBe(200)
    const afterStart = prepared
    time.advance(BOUND_MS * 2)
    expect((await health()).status).toBe(200)
    // The second request only read the database's health, it did not start again (which
    // writes the session secret first).
    expect(prepared - afterStart).toBeLessThanOrEqual(1)
  })
})
