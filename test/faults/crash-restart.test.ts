/**
 * Paylinks killed with SIGKILL in the middle of 200 concurrent checkouts, then restarted on the
 * same database: every card transaction the gateway created has its payment row, nothing is left
 * half-started, and the reconciler settles every pending payment to what the gateway knows.
 *
 * Paylinks runs as a child process (`node --import tsx src/runtime/node/main.ts`, as `npm start` does) against
 * a standalone simulator in this process. The checkout limit is 10 a minute per address, so the
 * 200 customers come from 20 loopback source addresses (127.0.0.10–29), 10 each.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { request } from 'node:http'
import { type AddressInfo, createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'
import { type ServerType, serve } from '@hono/node-server'
import { afterEach, describe, expect, it } from 'vitest'
import type { PaymentStatus } from '../../db/schema.js'
import { reconcile } from '../../src/payments/reconcile.js'
import { createSimulator, type Simulator } from '../../src/simulator/index.js'
import { type Paylinks, startPaylinks, TEST_ADMIN_TOKEN } from '../support/harness.js'
import { builtNode } from '../support/server-process.js'
import { CUSTOMER, EXPECTED_STATUS, receiptIdOf } from './support.js'

const ROOT = fileURLToPath(new URL('../../', import.meta.url))
const CUSTOMERS = 200
const ANSWERED = 60
const KILL_AT = 120
/** Customers already sent to the card page when the process dies. */
const REDIRECTED_BEFORE_KILL = 30

type Answer = { status: number; location: string | undefined } | { error: string }

const cleanup: (() => unknown)[] = []
afterEach(async () => {
  for (const task of cleanup.splice(0).reverse()) await task()
})

type Arrival = 'answer' | 'hold answer' | 'never handle'

/**
 * A simulator on a loopback port that decides, per card creation in order of arrival: answer it,
 * create the transaction but hold the answer back, or never handle it (as if the request had
 * not fully arrived when its sender died).
 */
async function heldSimulator(onArrival: (count: number) => Arrival) {
  let sim: Simulator | undefined
  let arrived = 0
  const held: (() => void)[] = []
  const hold = () => new Promise<void>((resolve) => held.push(resolve))
  const server = await new Promise<{ server: ServerType; url: string }>((resolve) => {
    const s = serve(
      {
        hostname: '127.0.0.1',
        port: 0,
        fetch: async (req) => {
          if (!new URL(req.url).pathname.includes('make-cib-transaction'))
            return sim!.app.fetch(req)
          const what = onArrival(++arrived)
          if (what === 'never handle') {
            await hold()
            return new Response(null, { status: 503 })
          }
          const res = await sim!.app.fetch(req)
          // The transaction now exists at the gateway; its answer may never reach Paylinks.
          if (what === 'hold answer') await hold()
          return res
        },
      },
      (info: AddressInfo) => resolve({ server: s, url: `http://127.0.0.1:${info.port}` }),
    )
  })
  sim = createSimulator({ publicUrl: server.url })
  cleanup.push(
    () =>
      new Promise<void>((resolve) => {
        for (const release of held.splice(0)) release()
        ;(server.server as unknown as { closeAllConnections(): void }).closeAllConnections()
        server.server.close(() => resolve())
      }),
  )
  return { sim, url: server.url }
}

/** A loopback port nobody listens on right now. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo
      server.close(() => resolve(port))
    })
  })
}

/** Starts the built server (as `npm start` does) on a free port; resolves once it says it is listening. */
async function startNode(
  env: Record<string, string>,
): Promise<{ child: ChildProcess; port: number }> {
  const port = await freePort()
  const child = spawn(process.execPath, [(await builtNode()).server], {
    cwd: ROOT,
    env: { ...process.env, ...env, PORT: String(port), PUBLIC_URL: `http://127.0.0.1:${port}` },
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  cleanup.push(() => stopNode(child, 'SIGKILL'))
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`Paylinks exited early (${code})`)))
    createInterface({ input: child.stdout! }).on('line', (line) => {
      if (/listening on port/.test(line)) resolve({ child, port })
    })
  })
}

function stopNode(child: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve()
    child.once('exit', () => resolve())
    child.kill(signal)
  })
}

/** One HTTP request from a chosen loopback source address. */
function send(
  port: number,
  path: string,
  options: { method?: string; body?: string; from?: string; headers?: Record<string, string> } = {},
): Promise<Answer & { text?: string }> {
  return new Promise((resolve) => {
    const body = options.body ?? ''
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path,
        method: options.method ?? 'GET',
        agent: false,
        ...(options.from ? { localAddress: options.from } : {}),
        headers: { 'content-length': Buffer.byteLength(body), ...options.headers },
      },
      (res) => {
        let text = ''
        res.setEncoding('utf8')
        res.on('data', (chunk) => {
          text += chunk
        })
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, location: res.headers.location, text }),
        )
        res.on('error', (error) =>
          resolve({ error: (error as NodeJS.ErrnoException).code ?? 'error' }),
        )
      },
    )
    req.on('error', (error) => resolve({ error: (error as NodeJS.ErrnoException).code ?? 'error' }))
    req.end(body)
  })
}

describe('a crash in the middle of 200 concurrent checkouts', () => {
  it('leaves a payment row for every gateway transaction, and the restart and the reconciler settle them all', async () => {
    let allArrived: () => void = () => {}
    const arrivals = new Promise<void>((resolve) => {
      allArrived = resolve
    })
    let enoughRedirected: () => void = () => {}
    const redirects = new Promise<void>((resolve) => {
      enoughRedirected = resolve
    })
    const gateway = await heldSimulator((count) => {
      if (count === KILL_AT) allArrived()
      if (count <= ANSWERED) return 'answer'
      return count <= KILL_AT ? 'hold answer' : 'never handle'
    })
    // Only the reconciler may settle: the webhooks never come.
    gateway.sim.faults.set({ webhooks: { never: true } })
    const dir = mkdtempSync(join(tmpdir(), 'paylinks-crash-'))
    cleanup.push(() => rmSync(dir, { recursive: true, force: true }))
    const env = {
      DATABASE_PATH: join(dir, 'paylinks.db'),
      ADMIN_TOKEN: TEST_ADMIN_TOKEN,
      CAPTCHA: 'off',
      GATEWAY_MODE: 'simulator',
      GATEWAY_SITE_URL: gateway.url,
      GATEWAY_API_URL: `${gateway.url}/api/v1`,
    }
    const first = await startNode(env)
    const created = await send(first.port, '/api/v1/links', {
      method: 'POST',
      body: JSON.stringify({ title: 'Crash test', amount: 1500, language: 'en' }),
      headers: { 'content-type': 'application/json', 'x-api-key': TEST_ADMIN_TOKEN },
    })
    expect('status' in created && created.status).toBe(201)
    const slug = JSON.parse(created.text ?? '{}').slug as string
    const page = await send(first.port, `/l/${slug}`)
    const csrf = /name="csrf" value="([^"]+)"/.exec(page.text ?? '')?.[1] ?? ''
    expect(csrf).not.toBe('')

    const body = new URLSearchParams({ ...CUSTOMER, csrf }).toString()
    let redirectedSoFar = 0
    const answers = Array.from({ length: CUSTOMERS }, async (_, i) => {
      const answer = await send(first.port, `/l/${slug}`, {
        method: 'POST',
        body,
        from: `127.0.0.${10 + (i % 20)}`,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      })
      if ('status' in answer && ++redirectedSoFar === REDIRECTED_BEFORE_KILL) enoughRedirected()
      return answer
    })
    await Promise.all([arrivals, redirects])
    await stopNode(first.child, 'SIGKILL')
    const results = await Promise.all(answers)
    const redirected = results.filter(
      (r): r is Extract<Answer, { status: number }> => 'status' in r,
    )
    // Every answer that came back before the kill sent the customer to the card page.
    expect(redirected.every((r) => r.status === 303)).toBe(true)
    expect(redirected.length).toBeGreaterThanOrEqual(REDIRECTED_BEFORE_KILL)
    expect(redirected.length).toBeLessThanOrEqual(ANSWERED)
    expect(results.length - redirected.length).toBeGreaterThan(0)

    // The restarted process comes up on the crashed database and serves.
    const second = await startNode(env)
    expect(await send(second.port, '/healthz')).toMatchObject({ status: 200 })
    expect(await send(second.port, `/l/${slug}`)).toMatchObject({ status: 200 })
    await stopNode(second.child, 'SIGTERM')
    expect(second.child.exitCode).toBe(0)

    // Customers who reached the card page finish there; the gateway knows each outcome.
    const after: Paylinks = await startPaylinks({
      databasePath: env.DATABASE_PATH,
      env: { GATEWAY_SITE_URL: gateway.url, GATEWAY_API_URL: `${gateway.url}/api/v1` },
      existingSimulator: gateway.sim,
      // The reconciler's next run, a few minutes later.
      clock: () => Date.now() + 3 * 60_000,
    })
    cleanup.push(() => after.close())
    const db = after.sqlite.sqlite
    const rowsNow = () =>
      db
        .prepare('SELECT receipt_id AS receiptId, status, cib_transaction_id AS cib FROM payments')
        .all() as {
        receiptId: string
        status: PaymentStatus
        cib: string | null
      }[]
    const txs = [...gateway.sim.state.transactions.values()]
    expect(txs).toHaveLength(KILL_AT)
    const byReceipt = new Map(rowsNow().map((r) => [r.receiptId, r]))
    const missing = txs.filter((tx) => !byReceipt.has(receiptIdOf(tx.returnUrl)))
    expect(missing).toEqual([])

    const outcomes = ['approved', 'declined', 'canceled', 'insufficient_funds'] as const
    const truth = new Map<string, PaymentStatus>()
    for (const [i, tx] of txs.entries()) {
      const row = byReceipt.get(receiptIdOf(tx.returnUrl))!
      if (row.status !== 'pending') continue
      const outcome = outcomes[i % outcomes.length]!
      await gateway.sim.completePayment(tx.orderId, outcome)
      truth.set(row.receiptId, EXPECTED_STATUS[outcome])
    }
    expect(truth.size).toBeGreaterThanOrEqual(redirected.length)

    for (let round = 0; round < 20; round++) {
      if ((await reconcile(after.deps)).checked === 0) break
    }
    const final = rowsNow()
    const unsettled = final.filter((r) => r.status === 'initiated' || r.status === 'pending')
    expect(unsettled).toEqual([])
    for (const row of final) {
      // A payment the gateway never answered for (no id) could not reach a card page: error.
      const expected = truth.get(row.receiptId) ?? 'error'
      expect({ receipt: row.receiptId, status: row.status }).toEqual({
        receipt: row.receiptId,
        status: expected,
      })
    }
  }, 120_000)
})
