/**
 * Paylinks killed with SIGKILL after answering the gateway's webhook 200: the work that answer
 * acknowledged — adopting a card transaction whose ids were never stored, or confirming a payment
 * — is finished by the next process (its start-up reconciler run), and the payment ends paid with
 * its `payment.paid` event, its outbox delivery and its receipt, once.
 *
 * Paylinks runs as a child process (`node --import tsx src/runtime/node/main.ts`) against a standalone
 * simulator in this process, over loopback; the simulator's webhooks reach the child over HTTP.
 * The gateway in front of the simulator can cut the answer of a card creation (the transaction is
 * created, Paylinks hears a 504) and hold the child's checks, so that the kill lands after the
 * webhook's 200 and before its background work.
 */

import type { ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { type ServerType, serve } from '@hono/node-server'
import Database from 'better-sqlite3'
import { afterEach, describe, expect, it } from 'vitest'
import { createEndpoint } from '../../src/outbound-webhooks/endpoints.js'
import { openSqlite } from '../../src/runtime/node/database.js'
import { createSimulator, type Simulator } from '../../src/simulator/index.js'
import { TEST_ADMIN_TOKEN } from '../support/harness.js'
import { builtNode, freePort, type Listening, spawnListening } from '../support/server-process.js'
import { CUSTOMER, receiptIdOf } from './support.js'

const ROOT = fileURLToPath(new URL('../../', import.meta.url))

const cleanup: (() => unknown)[] = []
const running: ChildProcess[] = []
afterEach(async () => {
  for (const child of running.splice(0)) if (child.exitCode === null) child.kill('SIGKILL')
  for (const task of cleanup.splice(0).reverse()) await task()
})

/** The simulator behind a loopback server that can cut a creation's answer and hold checks. */
async function gateway() {
  let sim: Simulator | undefined
  let cutCreations = false
  let holding = false
  const held: (() => void)[] = []
  let onHeld: () => void = () => {}
  const server = await new Promise<{ server: ServerType; url: string }>((resolve) => {
    const s = serve(
      {
        hostname: '127.0.0.1',
        port: 0,
        fetch: async (req) => {
          const path = new URL(req.url).pathname
          if (cutCreations && path.includes('make-cib-transaction')) {
            // The transaction now exists at the gateway; Paylinks hears only a time-out.
            await sim!.app.fetch(req)
            return new Response('{"error":"upstream timed out"}', { status: 504 })
          }
          if (holding && path.includes('cib-transaction-check')) {
            await new Promise<void>((release) => {
              held.push(release)
              onHeld()
            })
          }
          return sim!.app.fetch(req)
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
  return {
    sim,
    url: server.url,
    cutCreations(on: boolean) {
      cutCreations = on
    },
    /** From now on, checks wait; resolves once one is waiting. */
    holdChecks(): Promise<void> {
      holding = true
      return new Promise<void>((resolve) => {
        onHeld = resolve
      })
    },
    /** Lets the waiting checks go (to a process that may be gone) and holds no more. */
    releaseChecks() {
      holding = false
      for (const release of held.splice(0)) release()
    },
  }
}

type Gateway = Awaited<ReturnType<typeof gateway>>

/** A database file and the environment of every Paylinks process started on it. */
function setUp(gw: Gateway) {
  const dir = mkdtempSync(join(tmpdir(), 'paylinks-crash-webhook-'))
  cleanup.push(() => rmSync(dir, { recursive: true, force: true }))
  const databasePath = join(dir, 'paylinks.db')
  const env = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '/tmp',
    DATABASE_PATH: databasePath,
    ADMIN_TOKEN: TEST_ADMIN_TOKEN,
    CAPTCHA: 'off',
    GATEWAY_MODE: 'simulator',
    GATEWAY_SITE_URL: gw.url,
    GATEWAY_API_URL: `${gw.url}/api/v1`,
  }
  return { databasePath, env }
}

type Server = Listening & { url: string }

async function start(env: Record<string, string>): Promise<Server> {
  const port = await freePort()
  const url = `http://127.0.0.1:${port}`
  const listening = await spawnListening(process.execPath, [(await builtNode()).server], {
    cwd: ROOT,
    env: { ...env, PORT: String(port), PUBLIC_URL: url },
    running,
  })
  return { ...listening, url }
}

async function kill(server: Server): Promise<void> {
  server.child.kill('SIGKILL')
  await server.exited
}

/** Resolves once the process has written a line matching `pattern` (at most 30 s). */
function written(server: Server, pattern: RegExp): Promise<string> {
  return new Promise((resolve, reject) => {
    const look = () => {
      const line = server
        .output()
        .split('\n')
        .find((l) => pattern.test(l))
      if (line === undefined) return false
      server.child.stdout?.off('data', look)
      clearTimeout(guard)
      resolve(line)
      return true
    }
    const guard = setTimeout(() => {
      server.child.stdout?.off('data', look)
      reject(new Error(`never written: ${pattern}\n${server.output()}`))
    }, 30_000)
    if (!look()) server.child.stdout?.on('data', look)
  })
}

/** The start-up reconciler run's line, read as JSON. */
async function startRun(server: Server): Promise<{ replayed: number }> {
  return JSON.parse(await written(server, /"event":"reconciled","at":"start"/))
}

/** A merchant's webhook endpoint on the database, so a paid payment queues its notification. */
function addEndpoint(databasePath: string) {
  const handle = openSqlite(databasePath)
  return createEndpoint(
    handle.db,
    {
      url: 'http://127.0.0.1:9/hooks',
      description: null,
      eventTypes: ['payment.paid'],
      enabled: true,
    },
    Date.now(),
  ).finally(() => handle.close())
}

/** Creates a link through the API and checks out on it as a customer; answers the link's slug. */
async function checkout(server: Server): Promise<void> {
  const created = await fetch(`${server.url}/api/v1/links`, {
    method: 'POST',
    body: JSON.stringify({ title: 'Crash test', amount: 1500, language: 'en' }),
    headers: { 'content-type': 'application/json', 'x-api-key': TEST_ADMIN_TOKEN },
  })
  expect(created.status).toBe(201)
  const { slug } = (await created.json()) as { slug: string }
  const page = await (await fetch(`${server.url}/l/${slug}`)).text()
  const csrf = /name="csrf" value="([^"]+)"/.exec(page)?.[1] ?? ''
  await fetch(`${server.url}/l/${slug}`, {
    method: 'POST',
    body: new URLSearchParams({ ...CUSTOMER, csrf }),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    redirect: 'manual',
  })
}

type Row = Record<string, unknown>

/** What the database holds about the payment of `receiptId`, read with a connection of its own. */
function stored(databasePath: string, receiptId: string) {
  const db = new Database(databasePath)
  try {
    const payment = db.prepare('SELECT * FROM payments WHERE receipt_id = ?').get(receiptId) as Row
    return {
      payment,
      inbox: db
        .prepare('SELECT status, payment_id, attempts FROM webhook_events ORDER BY id')
        .all() as Row[],
      events: db
        .prepare('SELECT to_status, cause FROM payment_events WHERE payment_id = ? ORDER BY id')
        .all(payment.id) as Row[],
      outbox: db
        .prepare("SELECT type FROM deliveries WHERE payment_id = ? AND channel = 'webhook'")
        .all(payment.id) as Row[],
    }
  } finally {
    db.close()
  }
}

/** The one card transaction at the gateway, and the receipt its return URL names. */
function onlyTransaction(gw: Gateway) {
  const txs = [...gw.sim.state.transactions.values()]
  expect(txs).toHaveLength(1)
  const tx = txs[0]!
  return { tx, receiptId: receiptIdOf(tx.returnUrl) }
}

/** The customer pays on the card page; resolves once the gateway's webhook was answered 200. */
async function payAndDeliver(gw: Gateway, cibTransactionId: string) {
  await gw.sim.completePayment(cibTransactionId, 'approved')
  await gw.sim.flush()
  const [delivery] = [...gw.sim.state.deliveries.values()]
  expect(delivery?.attempts.at(-1)).toMatchObject({ status: 200 })
}

/** The receipt page the restarted process serves. */
async function receiptPage(server: Server, receiptId: string): Promise<string> {
  const res = await fetch(`${server.url}/r/${receiptId}?lang=en`)
  expect(res.status).toBe(200)
  return res.text()
}

describe('a process killed after answering the gateway’s webhook', () => {
  it('before adopting the transaction whose creation answer was cut: the next start adopts it, paid', async () => {
    const gw = await gateway()
    const { databasePath, env } = setUp(gw)
    const first = await start(env)
    await addEndpoint(databasePath)
    gw.cutCreations(true)
    await checkout(first)
    const { tx, receiptId } = onlyTransaction(gw)
    expect(stored(databasePath, receiptId).payment).toMatchObject({
      status: 'error',
      cib_transaction_id: null,
    })

    // The customer pays anyway and never comes back; the webhook is answered 200, and the
    // adoption's check is on its way when the process dies.
    const checking = gw.holdChecks()
    await payAndDeliver(gw, tx.cibTransactionId)
    await checking
    await kill(first)
    gw.releaseChecks()
    const dead = stored(databasePath, receiptId)
    expect(dead.payment).toMatchObject({ status: 'error', cib_transaction_id: null })
    expect(dead.inbox).toEqual([{ status: 'received', payment_id: null, attempts: 0 }])

    const second = await start(env)
    expect(await startRun(second)).toMatchObject({ replayed: 1 })
    const after = stored(databasePath, receiptId)
    expect(after.payment).toMatchObject({
      status: 'paid',
      cib_transaction_id: tx.cibTransactionId,
      transaction_id: tx.transactionId,
      order_id: tx.orderId,
      order_number: tx.cibTransactionId,
    })
    expect(after.inbox).toEqual([
      { status: 'processed', payment_id: after.payment.id, attempts: 1 },
    ])
    expect(after.events.at(-1)).toEqual({ to_status: 'paid', cause: 'reconciler' })
    expect(after.events.filter((e) => e.to_status === 'paid')).toHaveLength(1)
    expect(after.outbox).toEqual([{ type: 'payment.paid' }])
    const page = await receiptPage(second, receiptId)
    expect(page).toContain('Payment successful')
    expect(page).toContain(tx.cibTransactionId)
    await kill(second)
  }, 120_000)

  it('after adopting it: the next start leaves it paid, its event and delivery written once', async () => {
    const gw = await gateway()
    const { databasePath, env } = setUp(gw)
    const first = await start(env)
    await addEndpoint(databasePath)
    gw.cutCreations(true)
    await checkout(first)
    const { tx, receiptId } = onlyTransaction(gw)
    await payAndDeliver(gw, tx.cibTransactionId)
    const { id } = stored(databasePath, receiptId).payment as { id: string }
    await written(first, new RegExp(`"payment_id":"${id}","from":"pending","to":"paid"`))
    await kill(first)

    const second = await start(env)
    await startRun(second)
    const after = stored(databasePath, receiptId)
    expect(after.payment).toMatchObject({ status: 'paid', order_id: tx.orderId })
    // Adopted while the process lived (the row may have been marked or not when it died).
    expect(after.inbox).toMatchObject([{ status: 'processed', payment_id: id }])
    expect(after.events.map((e) => e.to_status)).toEqual(['initiated', 'error', 'pending', 'paid'])
    expect(after.outbox).toEqual([{ type: 'payment.paid' }])
    expect(await receiptPage(second, receiptId)).toContain('Payment successful')
    await kill(second)
  }, 120_000)

  it('before confirming a payment it knows: the next start confirms it and the row ends processed', async () => {
    const gw = await gateway()
    const { databasePath, env } = setUp(gw)
    const first = await start(env)
    await checkout(first)
    const { tx, receiptId } = onlyTransaction(gw)
    expect(stored(databasePath, receiptId).payment).toMatchObject({ status: 'pending' })

    const checking = gw.holdChecks()
    await payAndDeliver(gw, tx.cibTransactionId)
    await checking
    await kill(first)
    gw.releaseChecks()
    const dead = stored(databasePath, receiptId)
    expect(dead.payment).toMatchObject({ status: 'pending' })
    expect(dead.inbox).toEqual([{ status: 'received', payment_id: dead.payment.id, attempts: 0 }])

    const second = await start(env)
    expect(await startRun(second)).toMatchObject({ replayed: 1 })
    const after = stored(databasePath, receiptId)
    expect(after.inbox).toEqual([
      { status: 'processed', payment_id: after.payment.id, attempts: 1 },
    ])
    expect(after.payment).toMatchObject({ status: 'paid' })
    expect(after.events.at(-1)).toEqual({ to_status: 'paid', cause: 'reconciler' })
    await kill(second)
  }, 120_000)
})
