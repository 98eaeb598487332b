/**
 * Paylinks as a Worker for tests: the bundle `wrangler deploy` would upload, a local D1 migrated
 * by `wrangler d1 migrations apply --local` (the `npm run dev:worker` path), run by miniflare
 * (workerd) with the bindings of wrangler.toml on a loopback port.
 */
import { execFile } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Readable } from 'node:stream'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { drizzle } from 'drizzle-orm/d1'
import { Miniflare, type MiniflareOptions } from 'miniflare'
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

export interface WorkerPaylinks {
  /** The Worker's base URL on loopback; also its PUBLIC_URL. */
  url: string
  mf: Miniflare
  /** The same D1 database the Worker uses, through drizzle. */
  db: Db
  /** Lines the Worker wrote to its console (its logs), oldest first. */
  logs: string[]
  /** Starts a fresh isolate with other vars, on the same D1 state and port. */
  restart(vars: Record<string, string>): Promise<void>
  /** Runs the Worker's `scheduled` handler, as the Cron trigger does. */
  cron(): Promise<void>
  close(): Promise<void>
}

/** Bundles, migrates and starts the Worker; `vars` override wrangler.toml's `[vars]`. */
export async function startWorker(vars: Record<string, string> = {}): Promise<WorkerPaylinks> {
  const dir = mkdtempSync(join(tmpdir(), 'paylinks-worker-'))
  const state = join(dir, 'state')
  const bundle = join(dir, 'bundle')
  await wrangler(['deploy', '--dry-run', '--outdir', bundle])
  await wrangler(['d1', 'migrations', 'apply', 'paylinks', '--local', '--persist-to', state])
  const { workerOptions } = unstable_getMiniflareWorkerOptions(join(ROOT, 'wrangler.toml'))
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
  const options = (overrides: Record<string, string>): MiniflareOptions => ({
    ...(workerOptions as object),
    name: 'paylinks',
    modules: true,
    scriptPath: join(bundle, 'worker.js'),
    modulesRoot: bundle,
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
  })
  const mf = new Miniflare(options(vars))
  await mf.ready
  const db = drizzle(await mf.getD1Database('DB'), { schema }) as unknown as Db
  return {
    url,
    mf,
    db,
    logs,
    async restart(next) {
      await mf.setOptions(options(next))
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
