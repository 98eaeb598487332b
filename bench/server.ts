/**
 * The benchmark's server process: either a bare Hono hello-world or Paylinks (temp SQLite file,
 * built-in simulator, CAPTCHA off, silent logger) behind @hono/node-server on a loopback port.
 * It runs in its own process so autocannon does not share its CPU and its RSS is its own; the
 * parent drives it over the IPC channel (see `ServerCommands`).
 *
 * Run by bench/run.ts as `node --expose-gc --import tsx bench/server.ts <bare|paylinks> [db path]`.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { serve } from '@hono/node-server'
import { getConnInfo } from '@hono/node-server/conninfo'
import { Hono } from 'hono'
import { assemble } from '../src/app/assemble.js'
import { createApp } from '../src/app/index.js'
import { parseConfig } from '../src/config.js'
import { newRequestId, REQUEST_ID_HEADER } from '../src/http/request-log.js'
import { machineReplyHeaders } from '../src/http/security-headers.js'
import { createLinkFromBody } from '../src/links/service.js'
import { silentLogger } from '../src/log.js'
import { startCheckpointer } from '../src/runtime/node/checkpointer.js'
import { openSqlite } from '../src/runtime/node/database.js'
import { groupCommitInbox } from '../src/runtime/node/inbox.js'
import { nodeRuntimeParts, sha256HexSync } from '../src/runtime/node/runtime.js'
import { verifyGatewaySignatureSync } from '../src/runtime/node/signature.js'
import { SIMULATOR_PUBLIC_KEY_PEM, type Simulator } from '../src/simulator/index.js'
import { breakdown } from './breakdown.js'
import { BENCH_ADMIN_TOKEN, CLIENT_HEADER, type ServerMode } from './constants.js'

/** What the parent can ask; each answer is `{ id, ok, result | error }`. */
export interface ServerCommands {
  memory: { gc?: boolean }
  /** The process's CPU time so far (`process.cpuUsage()`, µs). */
  cpu: Record<string, never>
  /** Creates `count` links with the same body (title gets a number); answers their slugs. */
  seedLinks: { count: number; body: Record<string, unknown> }
  /** Approves every unfinished simulator transaction with webhooks switched off; answers their payloads. */
  completeAll: Record<string, never>
  /** Approves one simulator transaction as a customer would (its webhook goes out as usual). */
  approve: { orderId: string }
  /** Waits for background confirmations and simulator deliveries, then checkpoints the log. */
  idle: Record<string, never>
  /** Waits for background confirmations and simulator deliveries (no checkpoint). */
  settle: Record<string, never>
  /** Row counts by table and status. */
  counts: Record<string, never>
  /** Bare server: the page `GET /page` sends (base64 body). */
  setPage: { body: string; headers: Record<string, string> }
  /** Times the pieces of the checkout page and of a webhook (see bench/breakdown.ts). */
  breakdown: { slug: string; payload: Record<string, unknown> }
}

type Message = { id: number; cmd: keyof ServerCommands; args: never }

const mode = (process.argv[2] ?? 'paylinks') as ServerMode
const send = (message: unknown) => process.send?.(message)

type Fetch = (request: Request, env?: unknown) => Response | Promise<Response>

function listen(fetch: Fetch): Promise<string> {
  return new Promise((resolve) => {
    serve({ fetch, port: 0, hostname: '127.0.0.1' }, (info: AddressInfo) =>
      resolve(`http://127.0.0.1:${info.port}`),
    )
  })
}

const cpu = () => process.cpuUsage()

function memory(args: ServerCommands['memory']) {
  if (args.gc) (globalThis as { gc?: () => void }).gc?.()
  return process.memoryUsage()
}

/**
 * The bare baseline, plus two references that do only what cannot be avoided: `GET /page` sends a
 * fixed copy of a checkout page (bytes and headers, set with `setPage`), and `POST /ingest` takes a
 * webhook the shortest correct way — parse, RSA check, one durable inbox row (the same group
 * commit and checkpointing as Paylinks on Node), 200 with the reply Paylinks sends (its request
 * id and the headers of a reply to a server).
 */
const RECEIVED = JSON.stringify({ received: true })

async function startBare() {
  const replyHeaders = machineReplyHeaders(false)
  const app = new Hono()
  app.get('/', (c) => c.text('Hello Hono!'))
  let page: { body: Uint8Array; headers: Record<string, string> } = {
    body: new Uint8Array(),
    headers: {},
  }
  app.get(
    '/page',
    () => new Response(page.body as Uint8Array<ArrayBuffer>, { headers: page.headers }),
  )
  const dir = mkdtempSync(join(tmpdir(), 'paylinks-bench-bare-'))
  const sqlite = openSqlite(join(dir, 'inbox.db'))
  const checkpointer = startCheckpointer(sqlite)
  const record = groupCommitInbox(sqlite)
  app.post('/ingest', async (c) => {
    const raw = await c.req.text()
    const event = JSON.parse(raw) as Record<string, string>
    if (
      !verifyGatewaySignatureSync(
        event.message ?? '',
        event.signature ?? '',
        SIMULATOR_PUBLIC_KEY_PEM,
      )
    )
      return c.json({ error: 'bad_signature' }, 401)
    await record(
      {
        signedKey: sha256HexSync(raw),
        cibTransactionId: event.cib_transaction_id ?? null,
        paymentStatus: event.payment_status ?? null,
        payload: raw,
      },
      Date.now(),
    )
    // The reply Paylinks's endpoint sends, headers and all (a request id, the headers of a reply
    // to a server): the same answer, as `GET /page` sends the page's own headers.
    return new Response(RECEIVED, {
      headers: { [REQUEST_ID_HEADER]: newRequestId(), ...replyHeaders },
    })
  })
  const url = await listen(app.fetch)
  const handlers = {
    memory,
    cpu,
    setPage(args: ServerCommands['setPage']) {
      page = { body: Buffer.from(args.body, 'base64'), headers: args.headers }
      return true
    },
  } as Record<string, (args: never) => unknown>
  return {
    url,
    handlers,
    cleanup: () => {
      checkpointer.stop()
      sqlite.close()
      rmSync(dir, { recursive: true, force: true })
    },
  }
}

async function startPaylinks() {
  const dir = mkdtempSync(join(tmpdir(), 'paylinks-bench-'))
  let appFetch: Fetch = () => new Response('starting', { status: 503 })
  // The server's bindings go along: without them the client address (getConnInfo) is unknown.
  const url = await listen((request, env) => appFetch(request, env))
  const config = parseConfig({
    PUBLIC_URL: url,
    // A database given on the command line (a seeded merchant, bench/merchant.ts) or a new one.
    DATABASE_PATH: process.argv[3] ?? join(dir, 'paylinks.db'),
    ADMIN_TOKEN: BENCH_ADMIN_TOKEN,
    CAPTCHA: 'off',
    MERCHANT_NAME: 'Boutique Bench',
    DEFAULT_LANGUAGE: 'fr',
  })
  const sqlite = openSqlite(config.databasePath)
  const checkpointer = startCheckpointer(sqlite)
  const assembled = await assemble({
    db: sqlite.db,
    config,
    log: process.env.BENCH_LOG ? (e) => console.error(JSON.stringify(e)) : silentLogger,
    // Many customers behind one load generator: the rate limiter keys on the header when present.
    clientIp: (c) => c.req.header(CLIENT_HEADER) ?? getConnInfo(c).remote.address ?? 'unknown',
    ...nodeRuntimeParts(sqlite),
  })
  const simulator = assembled.simulator as Simulator
  const app = createApp(assembled.deps, { simulator: simulator.app })
  assembled.bindApp(app)
  appFetch = app.fetch
  const deps = assembled.deps
  const settle = async () => {
    await simulator.flush()
    await deps.background.idle()
    return true
  }

  const handlers: {
    [K in Exclude<keyof ServerCommands, 'setPage'>]: (args: ServerCommands[K]) => unknown
  } = {
    memory,
    cpu,
    async seedLinks({ count, body }) {
      const slugs: string[] = []
      for (let i = 0; i < count; i++) {
        const result = await createLinkFromBody(deps, { ...body, title: `${body.title} ${i}` })
        if (!result.ok) throw new Error(`link not created: ${JSON.stringify(result)}`)
        slugs.push(result.link.slug)
      }
      return slugs
    },
    async completeAll() {
      simulator.faults.set({ webhooks: { never: true } })
      for (const tx of simulator.state.transactions.values()) {
        if (!tx.outcome) await simulator.completePayment(tx.orderId, 'approved')
      }
      simulator.faults.set({ webhooks: null })
      return [...simulator.state.deliveries.values()]
        .filter((d) => d.state === 'dropped')
        .map((d) => d.payload)
    },
    async approve({ orderId }) {
      await simulator.completePayment(orderId, 'approved')
      return true
    },
    settle,
    async idle() {
      await settle()
      // Copy the write-ahead log into the database now, so the next measurement does not share the
      // machine with the checkpoint of what came before (seeding 1,000 links, say).
      sqlite.sqlite.pragma('wal_checkpoint(TRUNCATE)')
      return true
    },
    breakdown: ({ slug, payload }) => breakdown(app, deps, sqlite, slug, payload),
    counts() {
      const rows = (query: string) => sqlite.sqlite.prepare(query).all()
      return {
        payments: rows('select status, count(*) as n from payments group by status'),
        webhookEvents: rows('select status, count(*) as n from webhook_events group by status'),
        links: rows('select count(*) as n from links'),
      }
    },
  }
  return {
    url,
    handlers: handlers as Record<string, (args: never) => unknown>,
    cleanup: () => {
      checkpointer.stop()
      sqlite.close()
      rmSync(dir, { recursive: true, force: true })
    },
  }
}

const server = mode === 'bare' ? await startBare() : await startPaylinks()
process.on('message', async (message: Message) => {
  try {
    const handler = server.handlers[message.cmd]
    if (!handler) throw new Error(`unknown command ${message.cmd}`)
    send({ id: message.id, ok: true, result: await handler(message.args) })
  } catch (error) {
    send({ id: message.id, ok: false, error: String(error) })
  }
})
process.on('disconnect', () => {
  server.cleanup()
  process.exit(0)
})
send({ ready: true, url: server.url, pid: process.pid })
