/**
 * Test harness: Paylinks on a real SQLite file in a temp folder, with the gateway simulator either
 * built in (in process, for `app.request`) or standalone on a loopback port (real HTTP both ways).
 */
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type ServerType, serve } from '@hono/node-server'
import { assemble } from '../../src/app/assemble.js'
import { type App, createApp } from '../../src/app/index.js'
import { parseConfig } from '../../src/config.js'
import type { AppDeps } from '../../src/deps.js'
import { silentLogger } from '../../src/log.js'
import { openSqlite, type SqliteHandle } from '../../src/runtime/node/database.js'
import { nodeMail } from '../../src/runtime/node/mail.js'
import { nodeRuntimeParts } from '../../src/runtime/node/runtime.js'
import {
  createSimulator,
  type Simulator,
  type SimulatorOptions,
} from '../../src/simulator/index.js'
import { madeOncePerRun } from './run-cache.js'

export const TEST_ADMIN_TOKEN = 'test-admin-token-0123456789abcdef'

export interface Paylinks {
  app: App
  deps: AppDeps
  sqlite: SqliteHandle
  simulator: Simulator
  /** Paylinks' base URL (PUBLIC_URL). */
  url: string
  /** Waits until webhook confirmations and simulator deliveries in flight are done. */
  settle(): Promise<void>
  close(): Promise<void>
}

export interface HarnessOptions {
  /** Extra environment (configuration names of product.md). */
  env?: Record<string, string>
  clock?: () => number
  /** Serve both over loopback HTTP (default: in process, no sockets). */
  http?: boolean
  simulator?: Partial<SimulatorOptions>
  /** Where log lines go (default: dropped). */
  log?: (entry: Record<string, unknown>) => void
  /** Per-call gateway timeout for fault tests. */
  gatewayTimeoutMs?: number
  /** A simulator already serving elsewhere (set GATEWAY_SITE_URL to it in `env`). */
  existingSimulator?: Simulator
  /** Reuse this database file (a restart); it is then not removed on close. */
  databasePath?: string
  /**
   * PBKDF2 iterations for staff passwords: a thousand unless given, or the runtime's own
   * (`'runtime'`: OWASP's 600,000 on Node, about a seventh of a second of CPU a hash). What is
   * checked is the same at any count; test/auth/password-cost.test.ts checks Node's.
   */
  passwordIterations?: number | 'runtime'
}

/** The harness's PBKDF2 cost unless a test asks for another (see `passwordIterations`). */
export const TEST_PASSWORD_ITERATIONS = 1_000

/**
 * A database file with every migration applied, made once per test run in the run's cache
 * (test/support/run-cache.ts, removed when the run ends); outside a vitest run (a script using
 * the harness), none: each database is migrated.
 */
async function migratedTemplate(): Promise<string | undefined> {
  if (!process.env.VITEST) return undefined
  try {
    const dir = await madeOncePerRun('migrated-sqlite', async (into) => {
      openSqlite(join(into, 'migrated.db')).close()
    })
    return join(dir, 'migrated.db')
  } catch (error) {
    // A process a test started (VITEST inherited) is not a test process: it has no run cache.
    if (/internal state|No run cache/.test(String(error))) return undefined
    throw error
  }
}

function listen(
  fetchHandler: (request: Request) => Response | Promise<Response>,
): Promise<{ server: ServerType; url: string }> {
  return new Promise((resolve) => {
    const server = serve(
      { fetch: fetchHandler, port: 0, hostname: '127.0.0.1' },
      (info: AddressInfo) => {
        resolve({ server, url: `http://127.0.0.1:${info.port}` })
      },
    )
  })
}

function closeServer(server: ServerType): Promise<void> {
  return new Promise((resolve) => {
    ;(server as unknown as { closeAllConnections?: () => void }).closeAllConnections?.()
    server.close(() => resolve())
  })
}

/** Starts Paylinks for a test. Call `close()` in afterEach/afterAll. */
export async function startPaylinks(options: HarnessOptions = {}): Promise<Paylinks> {
  const dir = mkdtempSync(join(tmpdir(), 'paylinks-test-'))
  const servers: ServerType[] = []
  let appFetch: (request: Request) => Response | Promise<Response> = () =>
    new Response('starting', { status: 503 })
  let publicUrl = 'http://paylinks.test'
  let simulator: Simulator | undefined
  const env: Record<string, string> = {
    DATABASE_PATH: options.databasePath ?? join(dir, 'paylinks.db'),
    ADMIN_TOKEN: TEST_ADMIN_TOKEN,
    CAPTCHA: 'off',
    MERCHANT_NAME: 'Boutique Test',
  }
  if (options.http) {
    const paylinks = await listen((request) => appFetch(request))
    servers.push(paylinks.server)
    publicUrl = paylinks.url
    let simFetch: (request: Request) => Response | Promise<Response> = () =>
      new Response('starting', { status: 503 })
    const sim = await listen((request) => simFetch(request))
    servers.push(sim.server)
    simulator = createSimulator({
      publicUrl: sim.url,
      ...(options.clock ? { clock: options.clock } : {}),
      ...options.simulator,
    })
    simFetch = simulator.app.fetch
    env.GATEWAY_SITE_URL = sim.url
    env.GATEWAY_API_URL = `${sim.url}/api/v1`
  }
  env.PUBLIC_URL = publicUrl
  const config = parseConfig({ ...env, ...options.env })
  // A new database starts as a copy of one migrated before (openSqlite then finds every migration
  // applied): a tenth of the time of migrating each one, for hundreds of tests a run.
  const template = config.databasePath === join(dir, 'paylinks.db') && (await migratedTemplate())
  if (template) copyFileSync(template, config.databasePath)
  const sqlite = openSqlite(config.databasePath)
  const runtime = nodeRuntimeParts(sqlite)
  const mail = await nodeMail({
    db: sqlite.db,
    config,
    log: options.log ?? silentLogger,
    clock: options.clock ?? Date.now,
    receiptPdf: runtime.receiptPdf,
  })
  const assembled = await assemble({
    db: sqlite.db,
    config,
    log: options.log ?? silentLogger,
    clientIp: (c) => c.req.header('x-test-ip') ?? '127.0.0.1',
    ...runtime,
    ...mail.parts,
    ...(options.clock ? { clock: options.clock } : {}),
    ...(options.gatewayTimeoutMs ? { gatewayTimeoutMs: options.gatewayTimeoutMs } : {}),
    ...(options.passwordIterations === 'runtime'
      ? {}
      : { passwordIterations: options.passwordIterations ?? TEST_PASSWORD_ITERATIONS }),
  })
  if (!simulator) simulator = assembled.simulator ?? options.existingSimulator
  if (!simulator) throw new Error('No simulator: the test configuration points at another gateway')
  const app = createApp(
    assembled.deps,
    assembled.simulator ? { simulator: assembled.simulator.app } : {},
  )
  assembled.bindApp(app)
  appFetch = app.fetch
  const sim = simulator
  return {
    app,
    deps: assembled.deps,
    sqlite,
    simulator: sim,
    url: publicUrl,
    async settle() {
      for (let i = 0; i < 5; i++) {
        await sim.flush()
        await assembled.deps.background.idle()
      }
    },
    async close() {
      // Short re-checks not yet due would otherwise fire after the database is closed.
      assembled.deps.background.stop()
      await assembled.deps.background.idle().catch(() => {})
      for (const server of servers) await closeServer(server)
      mail.close()
      sqlite.close()
      rmSync(dir, { recursive: true, force: true })
    },
  }
}
