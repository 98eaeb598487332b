/**
 * The Worker as wrangler makes it, for tests: the bundle of either entry — `production`
 * (wrangler.toml's top level, what `wrangler deploy` uploads) or `dev` (`[env.dev]`, with the
 * built-in simulator) — its miniflare options, and a local D1 with the migrations applied as
 * `wrangler d1 migrations apply --local` applies them (the `npm run dev:worker` path). Each is made once per
 * `vitest run`, from the current sources, by the first test file that needs it
 * (test/support/run-cache.ts); every file gets its own copy of the D1.
 */
import { execFile } from 'node:child_process'
import { cpSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import type { unstable_getMiniflareWorkerOptions } from 'wrangler'
import { WORKERS } from '../../scripts/worker-configs.js'
import { madeOncePerRun } from '../support/run-cache.js'

export const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const WRANGLER = join(ROOT, 'node_modules', 'wrangler', 'bin', 'wrangler.js')

/** Environment for wrangler runs: no metrics, no banner or update check, no `Request.cf` fetch. */
export const QUIET_WRANGLER_ENV = {
  WRANGLER_SEND_METRICS: 'false',
  WRANGLER_HIDE_BANNER: 'true',
  CLOUDFLARE_CF_FETCH_ENABLED: 'false',
  CI: '1',
}

/** Runs the project's wrangler with `args` in the repository root. */
export async function wrangler(args: string[]): Promise<string> {
  const { stdout } = await promisify(execFile)(process.execPath, [WRANGLER, ...args], {
    cwd: ROOT,
    env: { ...process.env, ...QUIET_WRANGLER_ENV },
    maxBuffer: 16 * 1024 * 1024,
  })
  return stdout
}

/** Which Worker: wrangler.toml's top level (`wrangler deploy`) or `[env.dev]` (`wrangler dev --env dev`). */
export type WorkerEntry = 'production' | 'dev'

/** A Worker wrangler builds: an entry, or the production Worker's back office (wrangler.dashboard.toml). */
export type WorkerBuild = WorkerEntry | 'dashboard'

/** The file a build's configuration is in. */
export const configFileOf = (build: WorkerBuild) =>
  join(ROOT, build === 'dashboard' ? WORKERS.dashboard : WORKERS.production)

/** wrangler's `--env` value of a build (the empty string names the top level). */
const wranglerEnv = (build: WorkerBuild) => (build === 'dev' ? 'dev' : '')

/** wrangler's arguments naming a build's configuration. */
const configArgs = (build: WorkerBuild) => [
  '--config',
  configFileOf(build),
  '--env',
  wranglerEnv(build),
]

/** The main module wrangler wrote to `outdir`. */
function mainModule(outdir: string): string {
  const main = readdirSync(outdir).find((file) => file.endsWith('.js'))
  if (!main) throw new Error(`wrangler wrote no module to ${outdir}`)
  return join(outdir, main)
}

/** Builds `entry` as wrangler deploys it into `outdir`; returns the path of its main module. */
export async function buildWorker(entry: WorkerBuild, outdir: string): Promise<string> {
  await wrangler(['deploy', '--dry-run', ...configArgs(entry), '--outdir', outdir])
  return mainModule(outdir)
}

/**
 * The path of `entry`'s main module as wrangler deploys it, built once per run (its build command
 * writes `.worker-assets` too). Its directory is shared by the run's test files: read only.
 */
export async function builtWorker(entry: WorkerBuild): Promise<string> {
  const outdir = await madeOncePerRun(`build-${entry}`, async (dir) => {
    await buildWorker(entry, dir)
  })
  return mainModule(outdir)
}

/**
 * wrangler's bookkeeping of applied migrations, as `wrangler d1 migrations apply` creates and fills
 * it (DEFAULT_MIGRATION_TABLE and initMigrationsTable in wrangler's d1/migrations).
 */
const MIGRATIONS_TABLE = `CREATE TABLE IF NOT EXISTS d1_migrations(
\t\tid         INTEGER PRIMARY KEY AUTOINCREMENT,
\t\tname       TEXT UNIQUE,
\t\tapplied_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP NOT NULL
);`

/**
 * Every migration in db/migrations, in wrangler's order, each followed by the row wrangler records
 * for it: what `wrangler d1 migrations apply` sends, one migration at a time.
 */
function allMigrations(): string {
  const dir = join(ROOT, 'db', 'migrations')
  const names = readdirSync(dir)
    .filter((name) => name.endsWith('.sql'))
    .sort()
  const parts = names.map(
    (name) =>
      `${readFileSync(join(dir, name), 'utf8')}\nINSERT INTO d1_migrations (name) values ('${name}');`,
  )
  return [MIGRATIONS_TABLE, ...parts].join('\n')
}

/**
 * A local D1 state directory under `dir` with the migrations applied, as `npm run dev:worker`
 * makes it: a copy of the run's template. The template gets every migration in one
 * `wrangler d1 execute --local --file` (wrangler's statement splitter, workerd's SQLite), where
 * `migrations apply` starts workerd once per migration (twenty seconds of CPU for the same
 * database); `wrangler d1 migrations list` must then find nothing left to apply.
 */
export async function migratedState(dir: string): Promise<string> {
  const template = await madeOncePerRun('d1-migrated', async (state) => {
    const file = `${state}.sql`
    writeFileSync(file, allMigrations())
    const local = ['--local', '--persist-to', state]
    await wrangler(['d1', 'execute', 'paylinks', ...local, '--file', file, '--yes'])
    const left = await wrangler(['d1', 'migrations', 'list', 'paylinks', ...local])
    if (!left.includes('No migrations to apply'))
      throw new Error(`wrangler still lists migrations to apply:\n${left}`)
  })
  const state = join(dir, 'state')
  cpSync(template, state, { recursive: true })
  return state
}

/** The miniflare options wrangler derives from a wrangler.toml entry. */
export type WorkerOptions = ReturnType<typeof unstable_getMiniflareWorkerOptions>['workerOptions']

/** JSON.stringify's replacer that refuses what JSON would not carry (an undefined value is absent). */
function plainData(key: string, value: unknown): unknown {
  const prototype = value !== null && typeof value === 'object' && Object.getPrototypeOf(value)
  const plain =
    typeof value === 'object'
      ? value === null || [Object.prototype, Array.prototype, null].includes(prototype)
      : ['string', 'number', 'boolean', 'undefined'].includes(typeof value)
  if (!plain) throw new Error(`wrangler's miniflare option ${key} is not plain data`)
  return value
}

/**
 * wrangler.toml's miniflare options (bindings, D1, assets) for an entry, as wrangler derives them:
 * plain data, worked out once per run (loading wrangler's module takes seconds).
 */
export async function workerOptionsOf(entry: WorkerBuild): Promise<WorkerOptions> {
  const dir = await madeOncePerRun(`options-${entry}`, async (out) => {
    // wrangler refuses a config whose assets directory is missing; a fresh checkout has none until
    // the first build (builtWorker) writes it, which the Worker's start waits for.
    mkdirSync(join(ROOT, '.worker-assets'), { recursive: true })
    const { unstable_getMiniflareWorkerOptions } = await import('wrangler')
    const { workerOptions } = unstable_getMiniflareWorkerOptions(
      configFileOf(entry),
      wranglerEnv(entry),
    )
    // The development Worker serves /dashboard itself and never calls the back office its binding
    // names (wrangler asks every environment for the top level's services): left out, miniflare
    // runs it alone.
    if (entry === 'dev') delete workerOptions.serviceBindings
    writeFileSync(join(out, 'options.json'), JSON.stringify(workerOptions, plainData))
  })
  return JSON.parse(readFileSync(join(dir, 'options.json'), 'utf8')) as WorkerOptions
}

/** A build as one of miniflare's Workers, named `name`: its bundle and wrangler's options for it. */
export async function miniflareWorker(build: WorkerBuild, name: string): Promise<WorkerOptions> {
  const [options, scriptPath] = await Promise.all([workerOptionsOf(build), builtWorker(build)])
  return {
    ...(options as object),
    name,
    modules: true,
    scriptPath,
    modulesRoot: dirname(scriptPath),
  } as WorkerOptions
}
