/**
 * Paylinks on Node: reads the environment, opens SQLite (WAL, migrations applied), serves the app
 * with @hono/node-server, runs the reconciler, the outbox and the daily digest on timers and stops
 * gracefully on SIGTERM.
 */
import { serve as honoServe } from '@hono/node-server'
import { type Assembled, assemble, buildApp } from '../../app/assemble.js'
import { createApp } from '../../app/index.js'
import type { PaylinksApp } from '../../app/shell.js'
import { type Config, ConfigError, parseConfig } from '../../config.js'
import { describe } from '../../lib/describe-error.js'
import { consoleLogger } from '../../log.js'
import { reconcile } from '../../payments/reconcile.js'
import { startBackupSchedule } from './backup-schedule.js'
import { type Checkpointer, startCheckpointer } from './checkpointer.js'
import { openDatabase, type SqliteHandle } from './database.js'
import type { NodeMail } from './mail.js'
import { runtimeParts } from './runtime.js'
import { holdDatabase } from './server-lock.js'
import { dropUnreadBodies } from './unread-body.js'

const RECONCILE_EVERY_MS = 30_000
/** Outbound webhooks falling due (retries) are sent within this; changes are sent at once. */
const OUTBOUND_EVERY_MS = 5_000

/**
 * How long a client may take to send a request. Bodies are small (see body-limits.ts): a phone on
 * a poor 3G link (a second of latency, a few tens of KB/s up) sends its headers in a few seconds
 * and the largest form in well under 30 s, while a client trickling bytes to hold a connection
 * open is cut off (408) instead of keeping a socket and its buffers as long as it likes. Node
 * checks these every `connectionsCheckingInterval`, so a request is cut off within 35 s at most.
 * An idle keep-alive connection closes after 5 s (Node's default, said here on purpose): enough
 * for the page's own assets, not enough to hold sockets for visitors who have left.
 */
const serverOptions = {
  headersTimeout: 20_000,
  requestTimeout: 30_000,
  connectionsCheckingInterval: 5_000,
  keepAliveTimeout: 5_000,
}

/**
 * The start, in the same steps as the Worker's (src/runtime/worker/handler.ts): readConfig →
 * openDatabase → runtimeParts → assemble → buildApp, then `serve` where the Worker handles each
 * request, and `startTimers` where the Worker runs each Cron event.
 */
async function main() {
  const startedAt = Date.now()
  const config = readConfig()
  const sqlite = openDatabase(config, consoleLogger)
  // `paylinks restore` refuses while this mark names a live process.
  const release = holdDatabase(config.databasePath)
  const { parts, mail } = await runtimeParts(config, sqlite)
  const assembled = await assemble(parts)
  const app = buildApp(assembled, createApp)
  const server = serve(app, config, assembled, sqlite)
  const timers = startTimers(config, assembled, mail, sqlite, startedAt)
  stopOnSignals(() => {
    timers.stop()
    // Short re-checks not yet due are dropped: the reconciler of the next start checks those payments.
    assembled.deps.background.stop()
    // The till's event streams end, so that closing waits only for ordinary requests.
    assembled.deps.paymentChanges?.close()
    server.http.close(async () => {
      await assembled.deps.background.idle()
      await timers.stopped()
      mail.close()
      server.checkpointer?.stop()
      sqlite.close()
      release()
      process.exit(0)
    })
    // Keep-alive connections would hold close() open: end them once in-flight requests are done.
    if ('closeIdleConnections' in server.http)
      (server.http as unknown as { closeIdleConnections(): void }).closeIdleConnections()
    setTimeout(() => process.exit(0), 10_000).unref()
  })
}

/** The configuration from the environment; a bad one ends the process with its problems. */
function readConfig(): Config {
  try {
    return parseConfig(process.env)
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message)
      process.exit(1)
    }
    throw error
  }
}

/**
 * Serves the app with @hono/node-server. Once listening, the WAL checkpointer starts (its thread
 * would only slow the start down; until then SQLite checkpoints by itself) and the banner is
 * written.
 */
function serve(app: PaylinksApp, config: Config, assembled: Assembled, sqlite: SqliteHandle) {
  const fetch = dropUnreadBodies((request, env) => app.fetch(request, env))
  const served: { http: ReturnType<typeof honoServe>; checkpointer?: Checkpointer } = {
    http: honoServe({ fetch, port: config.port, hostname: config.host, serverOptions }, (info) => {
      served.checkpointer = startCheckpointer(sqlite)
      // One write, so whoever reads the terminal (or waits for "listening") gets all of it at once.
      console.log(banner(config, assembled, info.address, info.port))
    }),
  }
  return served
}

/**
 * What the Worker's Cron trigger does, on timers: the reconciler, the outbox and the daily
 * digest, and the backups; at once, the payments and webhooks an earlier run left.
 */
function startTimers(
  config: Config,
  assembled: Assembled,
  mail: NodeMail,
  sqlite: SqliteHandle,
  startedAt: number,
): { stop(): void; stopped(): Promise<void> } {
  const timer = setInterval(() => {
    reconcile(assembled.deps).catch((error) =>
      consoleLogger({ level: 'error', event: 'reconcile_failed', error: describe(error) }),
    )
  }, RECONCILE_EVERY_MS)
  timer.unref()
  const outboundTimer = setInterval(() => assembled.deps.outbound.kick(), OUTBOUND_EVERY_MS)
  outboundTimer.unref()
  // Deliveries an earlier run left due go out as soon as we are up.
  assembled.deps.outbound.kick()
  const stopDigest = mail.startDigest()
  const backups = config.backups
    ? startBackupSchedule(sqlite.sqlite, config.backups, consoleLogger)
    : undefined
  // Settle what an earlier run left pending as soon as we are up, and finish the webhooks it
  // acknowledged but did not process: every inbox row recorded before this start is its.
  reconcile(assembled.deps, undefined, { receivedBy: startedAt }).then(
    (result) => consoleLogger({ event: 'reconciled', at: 'start', ...result }),
    (error) => consoleLogger({ level: 'error', event: 'reconcile_failed', error: describe(error) }),
  )
  let digestStopped: Promise<void> = Promise.resolve()
  return {
    stop() {
      clearInterval(timer)
      clearInterval(outboundTimer)
      digestStopped = stopDigest()
    },
    async stopped() {
      await backups?.stop()
      await digestStopped
    },
  }
}

/** Runs `stop` once, on the first SIGTERM or SIGINT, after logging which. */
function stopOnSignals(stop: () => void): void {
  let stopping = false
  const onSignal = (signal: string) => {
    if (stopping) return
    stopping = true
    consoleLogger({ event: 'stopping', signal })
    stop()
  }
  process.on('SIGTERM', () => onSignal('SIGTERM'))
  process.on('SIGINT', () => onSignal('SIGINT'))
}

/** What the terminal shows once serving: where, the dashboard, the simulator, a new token. */
function banner(config: Config, assembled: Assembled, address: string, port: number): string {
  const url = config.publicUrl
  const lines = [
    `Paylinks is listening on port ${port} of ${address} (${config.gatewayMode} mode)`,
    `  Dashboard: ${url}/dashboard`,
  ]
  if (assembled.simulator) {
    lines.push(`  Gateway simulator: ${url}/_sim/_inspect (test cards on the card page)`)
    if (!isLoopback(address))
      lines.push(
        `  HOST=${config.host}: the simulator's inspector (customers' names) and fault controls have no login and are open to this network.`,
      )
  }
  if (assembled.newAdminToken) {
    lines.push(
      '',
      `  Admin token (shown once, keep it): ${assembled.newAdminToken}`,
      '  It logs you into the dashboard and is the X-API-Key of the merchant API.',
      '',
    )
  }
  return lines.join('\n')
}

function isLoopback(address: string): boolean {
  return address === '::1' || address.startsWith('127.') || address === '::ffff:127.0.0.1'
}

main().catch((error) => {
  console.error(error)
  process.exit(1)
})
