/**
 * Paylinks on Node: reads the environment, opens SQLite (WAL, migrations applied), serves the app
 * with @hono/node-server, runs the reconciler on a timer and stops gracefully on SIGTERM.
 */
import { serve } from '@hono/node-server'
import { getConnInfo } from '@hono/node-server/conninfo'
import { createApp } from './app.js'
import { type Assembled, assemble } from './bootstrap.js'
import { type Config, ConfigError, parseConfig } from './config.js'
import { consoleLogger } from './log.js'
import { type Checkpointer, startCheckpointer } from './node/checkpointer.js'
import { nodeRuntimeParts } from './node/runtime.js'
import { openSqlite } from './node/sqlite.js'
import { reconcile } from './payments/reconcile.js'

const RECONCILE_EVERY_MS = 30_000

async function main() {
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
  const sqlite = openSqlite(config.databasePath)
  // Started once serving (its thread would only slow the start down); until then SQLite
  // checkpoints by itself.
  let checkpointer: Checkpointer | undefined
  const assembled = await assemble({
    db: sqlite.db,
    config,
    log: consoleLogger,
    clientIp: (c) => getConnInfo(c).remote.address ?? 'unknown',
    ...nodeRuntimeParts(sqlite),
  })
  const app = createApp(
    assembled.deps,
    assembled.simulator ? { simulator: assembled.simulator.app } : {},
  )
  assembled.bindApp(app)

  const server = serve({ fetch: app.fetch, port: config.port, hostname: config.host }, (info) => {
    checkpointer = startCheckpointer(sqlite)
    // One write, so whoever reads the terminal (or waits for "listening") gets all of it at once.
    console.log(banner(config, assembled, info.address, info.port))
  })

  const timer = setInterval(() => {
    reconcile(assembled.deps).catch((error) =>
      consoleLogger({ level: 'error', event: 'reconcile_failed', error: String(error) }),
    )
  }, RECONCILE_EVERY_MS)
  timer.unref()
  // Settle what an earlier run left pending as soon as we are up.
  void reconcile(assembled.deps).catch(() => {})

  let stopping = false
  const stop = (signal: string) => {
    if (stopping) return
    stopping = true
    consoleLogger({ event: 'stopping', signal })
    clearInterval(timer)
    server.close(async () => {
      await assembled.deps.background.idle()
      checkpointer?.stop()
      sqlite.close()
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
