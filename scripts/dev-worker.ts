/**
 * `npm run dev:worker [-- wrangler dev options]`: Paylinks' development Worker (`[env.dev]` of
 * wrangler.toml, src/runtime/worker/dev.ts) under `wrangler dev`, started the way a newcomer
 * needs it; `npm run prod:worker` (`--pair`): the production pair (wrangler.toml and
 * wrangler.dashboard.toml in one `wrangler dev`, configured by `prod.env`, its own local D1 in
 * `.wrangler/prod`, port 8789), started the same way:
 *
 * 1. the local D1's migrations applied with `wrangler d1 migrations apply --local` (the same
 *    files Node applies), its output kept and one line printed (wrangler prints the whole table
 *    of migrations after each one; all of it is shown when it fails);
 * 2. `wrangler dev --test-scheduled` with the options given (`--port`, `--persist-to`, …):
 *    `/__scheduled` runs the Cron trigger's work (the reconciler, outbound webhooks, e-mail).
 *    Wrangler's own `/cdn-cgi/handler/scheduled` answers "500 exception" for a Worker with static
 *    assets in the pinned wrangler (4.86; workers-sdk#9882): it calls the assets' router, which
 *    has no scheduled handler. `Request.cf` is not fetched from Cloudflare (the app does not read
 *    it, and offline the failed fetch prints two stack traces);
 * 3. once wrangler answers, one request (so the Worker starts, applies its PUBLIC_URL and shows a
 *    newly generated admin token now rather than at the first page opened), then the lines Node's
 *    start prints: where, the dashboard, the simulator, the scheduled run and the admin token's
 *    source.
 *
 *   npx tsx scripts/dev-worker.ts [--pair] [--port N] [--persist-to DIR] [other `wrangler dev` options]
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { fileURLToPath } from 'node:url'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const WRANGLER = join(ROOT, 'node_modules', 'wrangler', 'bin', 'wrangler.js')

/** The value of option `name` in `args` (`--name value` or `--name=value`), if given. */
export function optionValue(args: readonly string[], name: string): string | undefined {
  for (const [index, arg] of args.entries()) {
    if (arg === name) return args[index + 1]
    if (arg.startsWith(`${name}=`)) return arg.slice(name.length + 1)
  }
  return undefined
}

/** The options of `defaults` whose name `args` does not give again (`--name value` pairs). */
export function withoutGiven(defaults: readonly string[], args: readonly string[]): string[] {
  const out: string[] = []
  for (let i = 0; i < defaults.length; i++) {
    const name = defaults[i]!
    const value = defaults[i + 1]
    const isPair = name.startsWith('-') && value !== undefined && !value.startsWith('-')
    if (isPair) i++
    if (isPair && optionValue(args, name) !== undefined) continue
    out.push(name, ...(isPair ? [value] : []))
  }
  return out
}

/** `[dev] port` of wrangler.toml: the port `wrangler dev` serves on without `--port` (8787 by default). */
export function configuredPort(toml: string): number {
  const dev = /^\[dev\]\s*$([\s\S]*?)(?=^\[|(?![\s\S]))/m.exec(toml)?.[1] ?? ''
  const port = /^port\s*=\s*(\d+)/m.exec(dev)?.[1]
  return port ? Number(port) : 8787
}

/** The one line the migrations' output comes down to: how many wrangler applied, or none. */
export function migrationSummary(output: string, where: string): string {
  const applied = /About to apply (\d+) migration/.exec(output)?.[1]
  if (applied) return `Local D1 (${where}): ${applied} migration(s) applied.`
  if (output.includes('No migrations to apply')) return `Local D1 (${where}): up to date.`
  return `Local D1 (${where}): migrations checked.`
}

/** What the terminal shows once the Worker answers, as Node's start prints it. */
export function banner(url: string, tokenSource: string, pair = false): string {
  return [
    pair
      ? `Paylinks is listening on ${url} (wrangler dev, the production pair, settings of prod.env)`
      : `Paylinks is listening on ${url} (wrangler dev, simulator mode)`,
    `  Dashboard: ${url}/dashboard${pair ? ' (paylinks-dashboard, through the DASHBOARD binding)' : ''}`,
    ...(pair ? [] : [`  Gateway simulator: ${url}/_sim/_inspect (test cards on the card page)`]),
    `  Scheduled work (reconciler, webhooks, e-mail): curl ${url}/__scheduled`,
    `  Admin token: ${tokenSource}`,
    '',
  ].join('\n')
}

/** How `wrangler` is run for the development Worker or for the production pair. */
export function modeOf(pair: boolean) {
  return pair
    ? {
        migrate: ['--local', '--persist-to', '.wrangler/prod'],
        dev: [
          '-c',
          'wrangler.toml',
          '-c',
          'wrangler.dashboard.toml',
          '--env-file',
          'prod.env',
          '--persist-to',
          '.wrangler/prod',
          '--port',
          '8789',
        ],
        where: '.wrangler/prod',
      }
    : { migrate: ['--local', '--env', 'dev'], dev: ['--env', 'dev'], where: '.wrangler/state' }
}

/** Where the admin token comes from: `.dev.vars`, or the one generated on the first start. */
function tokenSource(where: string, pair: boolean): string {
  if (pair) return 'ADMIN_TOKEN of prod.env (required outside simulator mode)'
  const vars = join(ROOT, '.dev.vars')
  if (existsSync(vars) && /^\s*ADMIN_TOKEN\s*=\s*\S/m.test(readFileSync(vars, 'utf8')))
    return 'ADMIN_TOKEN of .dev.vars'
  return `generated on the first start of this local D1 (${where}) and printed once, in the line "Paylinks admin token (shown once, keep it)"; or set ADMIN_TOKEN=… (16+ characters) in .dev.vars`
}

/** Runs wrangler with `args`; resolves with its exit code and everything it wrote. */
function runQuietly(args: string[]): Promise<{ code: number; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [WRANGLER, ...args], {
      cwd: ROOT,
      env: { ...process.env, WRANGLER_HIDE_BANNER: 'true' },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let output = ''
    child.stdout.on('data', (chunk) => {
      output += chunk
    })
    child.stderr.on('data', (chunk) => {
      output += chunk
    })
    child.once('error', reject)
    child.once('close', (code) => resolve({ code: code ?? 1, output }))
  })
}

/**
 * Asks `url` until it answers (wrangler is building and starting), or `child` has exited: the
 * Worker's answer, or undefined.
 */
async function answered(url: string, child: ChildProcess): Promise<Response | undefined> {
  while (child.exitCode === null && child.signalCode === null) {
    try {
      return await fetch(`${url}/healthz`)
    } catch {
      await sleep(500)
    }
  }
  return undefined
}

async function main(): Promise<void> {
  const pair = process.argv.includes('--pair')
  const args = process.argv.slice(2).filter((arg) => arg !== '--pair')
  const mode = modeOf(pair)
  if (pair && !existsSync(join(ROOT, 'prod.env'))) {
    console.error(
      'No prod.env: copy prod.env.example to prod.env and fill it in (README, "The production pair on this computer").',
    )
    process.exit(1)
  }
  const persistTo = optionValue(args, '--persist-to')
  const where = persistTo ?? mode.where
  const given = persistTo ? ['--persist-to', persistTo] : []
  const local = [...withoutGiven(mode.migrate, given), ...given]

  const migrations = await runQuietly(['d1', 'migrations', 'apply', 'paylinks', ...local])
  if (migrations.code !== 0) {
    process.stderr.write(migrations.output)
    process.exit(migrations.code)
  }
  console.log(migrationSummary(migrations.output, where))

  const port = Number(
    optionValue(args, '--port') ??
      optionValue(mode.dev, '--port') ??
      configuredPort(readFileSync(join(ROOT, 'wrangler.toml'), 'utf8')),
  )
  const ip = optionValue(args, '--ip')
  const host =
    !ip || ['localhost', '127.0.0.1', '0.0.0.0', '::', '*'].includes(ip) ? 'localhost' : ip
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`

  const dev = spawn(
    process.execPath,
    [WRANGLER, 'dev', ...withoutGiven(mode.dev, args), '--test-scheduled', ...args],
    {
      cwd: ROOT,
      // PAYLINKS_ASSETS_IF_STALE: the pair's build command writes the assets only when a source
      // changed (scripts/build-worker-assets.ts), as [env.dev.build] does for the dev Worker.
      env: { CLOUDFLARE_CF_FETCH_ENABLED: 'false', PAYLINKS_ASSETS_IF_STALE: '1', ...process.env },
      stdio: 'inherit',
    },
  )
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => dev.kill(signal))
  dev.once('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)))

  const health = await answered(url, dev)
  if (!health) return
  // A Worker that cannot start answers 503 naming the settings to fix: shown instead.
  if (health.status === 503) console.error(`Paylinks cannot start yet: ${await health.text()}`)
  else {
    await health.body?.cancel()
    console.log(banner(url, tokenSource(where, pair), pair))
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await main()
