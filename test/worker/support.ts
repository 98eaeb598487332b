/**
 * Paylinks as a Worker for tests: the bundle wrangler builds for either entry — `production`
 * (wrangler.toml's top level, what `wrangler deploy` uploads) or `dev` (`[env.dev]`, with the
 * built-in simulator) — a local D1 migrated by `wrangler d1 migrations apply --local` (the
 * `npm run dev:worker` path), run by miniflare (workerd) with that entry's bindings on a loopback
 * port.
 */
import { execFile } from 'node:child_process'
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Readable } from 'node:stream'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import type { D1Database } from '@cloudflare/workers-types/index.ts'
import { drizzle } from 'drizzle-orm/d1'
import { Miniflare, type MiniflareOptions } from 'miniflare'
import { afterAll, beforeAll } from 'vitest'
import { unstable_getMiniflareWorkerOptions } from 'wrangler'
import * as schema from '../../db/schema.js'
import type { Db } from '../../src/data/db.js'

export const ROOT = fileURLToPath(new URL('../..', import.meta.url))
export const WORKER_ADMIN_TOKEN = 'worker-admin-token-0123456789abcdef'
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

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('port')),
      )
    })
  })
}

/** Which Worker: wrangler.toml's top level (`wrangler deploy`) or `[env.dev]` (`wrangler dev --env dev`). */
export type WorkerEntry = 'production' | 'dev'

/** wrangler's `--env` value of an entry (the empty string names the top level). */
const wranglerEnv = (entry: WorkerEntry) => (entry === 'dev' ? 'dev' : '')

export interface WorkerPaylinks {
  /** The Worker's base URL on loopback; also its PUBLIC_URL. */
  url: string
  mf: Miniflare
  /** The same D1 database the Worker uses, through drizzle. */
  db: Db
  /** Lines the Worker wrote to its console (its logs), oldest first. */
  logs: string[]
  /** Starts a fresh isolate with other vars (and entry, default the current one), on the same D1 state and port. */
  restart(vars: Record<string, string>, entry?: WorkerEntry): Promise<void>
  /** Runs the Worker's `scheduled` handler, as the Cron trigger does. */
  cron(): Promise<void>
  close(): Promise<void>
}

/** Builds `entry` as wrangler deploys it into `outdir`; returns the path of its main module. */
export async function buildWorker(entry: WorkerEntry, outdir: string): Promise<string> {
  await wrangler(['deploy', '--dry-run', '--env', wranglerEnv(entry), '--outdir', outdir])
  const main = readdirSync(outdir).find((file) => file.endsWith('.js'))
  if (!main) throw new Error(`wrangler wrote no module to ${outdir}`)
  return join(outdir, main)
}

/** A local D1 state directory with the migrations applied, as `npm run dev:worker` makes it. */
export async function migratedState(dir: string): Promise<string> {
  const state = join(dir, 'state')
  await wrangler(['d1', 'migrations', 'apply', 'paylinks', '--local', '--persist-to', state])
  return state
}

/** wrangler.toml's miniflare options (bindings, D1, assets) for an entry. */
export function workerOptionsOf(entry: WorkerEntry) {
  // wrangler refuses a config whose assets directory is missing; a fresh checkout has none until
  // the first build (buildWorker) writes it, which the Worker's start waits for.
  mkdirSync(join(ROOT, '.worker-assets'), { recursive: true })
  return unstable_getMiniflareWorkerOptions(join(ROOT, 'wrangler.toml'), wranglerEnv(entry))
    .workerOptions
}

/**
 * Bundles, migrates and starts the Worker of `entry` (default `dev`, the one with the simulator);
 * `vars` override its vars in wrangler.toml.
 */
export async function startWorker(
  vars: Record<string, string> = {},
  entry: WorkerEntry = 'dev',
): Promise<WorkerPaylinks> {
  const dir = mkdtempSync(join(tmpdir(), 'paylinks-worker-'))
  const state = await migratedState(dir)
  const scripts = new Map<WorkerEntry, string>()
  const scriptOf = async (which: WorkerEntry) => {
    if (!scripts.has(which)) scripts.set(which, await buildWorker(which, join(dir, which)))
    return scripts.get(which)!
  }
  let current = entry
  const port = await freePort()
  const url = `http://127.0.0.1:${port}`
  const logs: string[] = []
  const collect = (stream: Readable) => {
    let rest = ''
    stream.setEncoding('utf8')
    stream.on('data', (chunk: string) => {
      const lines = (rest + chunk).split('\n')
      rest = lines.pop() ?? ''
      logs.push(...lines.filter((line) => line.trim() !== ''))
    })
  }
  const options = async (
    overrides: Record<string, string>,
    which: WorkerEntry,
  ): Promise<MiniflareOptions> => {
    const workerOptions = workerOptionsOf(which)
    const scriptPath = await scriptOf(which)
    return {
      ...(workerOptions as object),
      name: 'paylinks',
      modules: true,
      scriptPath,
      modulesRoot: join(scriptPath, '..'),
      bindings: {
        ...workerOptions.bindings,
        PUBLIC_URL: url,
        ADMIN_TOKEN: WORKER_ADMIN_TOKEN,
        CAPTCHA: 'off',
        ...overrides,
      },
      d1Persist: join(state, 'v3', 'd1'),
      host: '127.0.0.1',
      port,
      cf: false,
      // The Worker's console output (one JSON line a request) is kept for assertions, not printed.
      handleRuntimeStdio(stdout: Readable, stderr: Readable) {
        collect(stdout)
        collect(stderr)
      },
    }
  }
  const mf = new Miniflare(await options(vars, current))
  await mf.ready
  const db = drizzle(await mf.getD1Database('DB'), { schema }) as unknown as Db
  return {
    url,
    mf,
    db,
    logs,
    async restart(next, which = current) {
      current = which
      await mf.setOptions(await options(next, which))
    },
    async cron() {
      const worker = await mf.getWorker()
      await worker.scheduled({ cron: '* * * * *' })
    },
    async close() {
      await mf.dispose()
      rmSync(dir, { recursive: true, force: true })
    },
  }
}

/** The value of the hidden or text input `name` in an HTML page. */
export function inputValue(html: string, name: string): string {
  const tag = new RegExp(`<input[^>]*\\bname="${name}"[^>]*>`).exec(html)?.[0]
  const value = tag ? /\bvalue="([^"]*)"/.exec(tag)?.[1] : undefined
  if (value === undefined) throw new Error(`No input named ${name} with a value`)
  return value.replaceAll('&amp;', '&').replaceAll('&quot;', '"')
}

/** The first form action in a page that ends with `suffix` (e.g. `/card`). */
export function formAction(html: string, suffix: string): string {
  for (const match of html.matchAll(/<form[^>]*\baction="([^"]*)"/g)) {
    const action = match[1]!.replaceAll('&amp;', '&')
    if (action.split('?')[0]!.endsWith(suffix)) return action
  }
  throw new Error(`No form posting to …${suffix}`)
}

/** POSTs a urlencoded form without following redirects. */
export function postForm(url: string, fields: Record<string, string>, headers = {}) {
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(fields),
    redirect: 'manual',
  })
}

/**
 * Starts the Worker (as `startWorker`) before a test file's tests and closes it after them: call
 * in a test file's body; `worker()` is ready in tests.
 */
export function useWorker(...args: Parameters<typeof startWorker>): () => WorkerPaylinks {
  let w: WorkerPaylinks | undefined
  beforeAll(async () => {
    w = await startWorker(...args)
  }, 120_000)
  afterAll(async () => {
    await w?.close()
  })
  return () => {
    if (!w) throw new Error('the Worker has not started: use it inside a test')
    return w
  }
}

/**
 * A local D1 migrated by wrangler, behind a Miniflare with no Worker of its own, for tests that
 * hand a binding to the handler directly: call in a test file's body; `d1()` is ready in tests.
 */
export function useLocalD1(name: string): {
  d1: () => D1Database
} {
  let dir = ''
  let mf: Miniflare | undefined
  let d1: D1Database | undefined
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), `paylinks-worker-${name}-`))
    const state = await migratedState(dir)
    mf = new Miniflare({
      modules: true,
      script: 'export default { fetch() { return new Response(null, { status: 404 }) } }',
      d1Databases: workerOptionsOf('production').d1Databases,
      d1Persist: join(state, 'v3', 'd1'),
    })
    d1 = (await mf.getD1Database('DB')) as unknown as typeof d1
  }, 120_000)
  afterAll(async () => {
    await mf?.dispose()
    if (dir) rmSync(dir, { recursive: true, force: true })
  })
  return {
    d1: () => {
      if (!d1) throw new Error('the local D1 is not ready: use it inside a test')
      return d1
    },
  }
}
