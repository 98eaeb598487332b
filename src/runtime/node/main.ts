/**
 * Paylinks on Node: reads the environment, opens SQLite (WAL, migrations applied), serves the app
 * with @hono/node-server, runs the reconciler, the outbox and the daily digest on timers and stops
 * gracefully on SIGTERM.
 */
import { serve } from '@hono/node-server'
import { type Assembled, assemble } from '../../app/assemble.js'
import { createApp } from '../../app/index.js'
import { type Config, ConfigError, parseConfig } from '../../config.js'
import { describe } from '../../lib/describe-error.js'
import { consoleLogger } from '../../log.js'
import { reconcile } from '../../payments/reconcile.js'
import { startBackupSchedule } from './backup-schedule.js'
import { type Checkpointer, startCheckpointer } from './checkpointer.js'
import { nodeClientIp } from './client-address.js'
import { openSqlite } from './database.js'
import { nodeMail } from './mail.js'
import { nodeRuntimeParts } from './runtime.js'
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

async function main() {
  const startedAt = Date.now()
  let config: ReturnType<typeof parseConfig>
  try {
    config = parseConfig(process.env)
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message)
      process.exit(1)
    }
    throw error
  }
  const sqlite = openSqlite(config.databasePath, {
    warn: (detail) => consoleLogger({ level: 'warn', event: 'database_open_to_others', detail }),
  })
  // `paylinks restore` refuses while this mark names a live process.
  const release = holdDatabase(config.databasePath)
  // Started once serving (its thread would only slow the start down); until then SQLite
  // checkpoints by itself.
  let checkpointer: Checkpointer | undefined
  const runtime = nodeRuntimeParts(sqlite)
  // With SMTP_URL, paid payments queue their e-mails in the outbox; without, nothing is queued.
  const mail = await nodeMail({
    db: sqlite.db,
    config,
    log: consoleLogger,
    clock: Date.now,
    receiptPdf: runtime.receiptPdf,
  })
  const assembled = await assemble({
    db: sqlite.db,
    config,
    log: consoleLogger,
    clientIp: nodeClientIp(config.trustProxy),
    ...runtime,
    ...mail.parts,
  })
  const app = createApp(
    assembled.deps,
    assembled.simulator ? { simulator: assembled.simulator.app } : {},
  )
  assembled.bindApp(app)

  const fetch = dropUnreadBodies((request, env) => app.fetch(request, env))
  const server = serve(
    { fetch, port: config.port, hostname: config.host, serverOptions },
    (info) => {
      checkpointer = startCheckpointer(sqlite)
      // One write, so whoever reads the terminal (or waits for "listening") gets all of it at once.
      console.log(banner(config, assembled, info.address, info.port))
    },
  )

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

  let stopping = false
  const stop = (signal: string) => {
    if (stopping) return
    stopping = true
    consoleLogger({ event: 'stopping', signal })
    clearInterval(timer)
    clearInterval(outboundTimer)
    const digestStopped = stopDigest()
    // Short re-checks not yet due are dropped: the reconciler of the next start checks those payments.
    assembled.deps.background.stop()
    // The till's event streams end, so that closing waits only for ordinary requests.
    assembled.deps.paymentChanges?.close()
    server.close(async () => {
      await assembled.deps.background.idle()
      await backups?.stop()
      await digestStopped
      mail.close()
      checkpointer?.stop()
      sqlite.close()
      release()
      process.exit(0)
    })
    // Keep-alive connections would hold close() open: end them once in-flight requests are done.
    if ('closeIdleConnections' in server)
      (server as unknown as { closeIdleConnections(): void }).closeIdleConnections()
    setTimeout(() => process.exit(0), 10_000).unref()
  }
  process.on('SIGTERM', () => stop('SIGTERM'))
  process.on('SIGINT', () => stop('SIGINT'))
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
