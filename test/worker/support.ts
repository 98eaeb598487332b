/**
 * Paylinks as a Worker for tests: the bundle wrangler builds for either entry — `production`
 * (wrangler.toml's top level, what `wrangler deploy` uploads) or `dev` (`[env.dev]`, with the
 * built-in simulator) — on a local D1 with the migrations applied as
 * `wrangler d1 migrations apply --local` applies them (the `npm run dev:worker` path), run by miniflare (workerd) with that entry's bindings on a loopback
 * port. The builds and the migrated D1 are made once per run (test/worker/build.ts); each test
 * file gets its own copy of the D1 and its own miniflare.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Readable } from 'node:stream'
import type { D1Database, Fetcher } from '@cloudflare/workers-types/index.ts'
import { drizzle } from 'drizzle-orm/d1'
import {
  Miniflare,
  type MiniflareOptions,
  type Request as MiniflareRequest,
  type Response as MiniflareResponse,
} from 'miniflare'
import { afterAll, beforeAll } from 'vitest'
import * as schema from '../../db/schema.js'
import { workerAssets } from '../../scripts/build-worker-assets.js'
import type { Db } from '../../src/data/db.js'
import {
  builtWorker,
  migratedState,
  miniflareWorker,
  type WorkerEntry,
  workerOptionsOf,
} from './build.js'

export {
  builtWorker,
  migratedState,
  miniflareWorker,
  QUIET_WRANGLER_ENV,
  ROOT,
  type WorkerEntry,
  workerOptionsOf,
  wrangler,
} from './build.js'

export const WORKER_ADMIN_TOKEN = 'worker-admin-token-0123456789abcdef'

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
  /**
   * Starts a fresh isolate with other vars (and entry, default the current one), on the same D1
   * state and port. The production entry comes with its back office unless `backOffice` is false:
   * then its DASHBOARD binding reaches nothing, as under `wrangler dev` of wrangler.toml alone.
   */
  restart(
    vars: Record<string, string>,
    entry?: WorkerEntry,
    options?: { backOffice?: boolean },
  ): Promise<void>
  /** Runs the Worker's `scheduled` handler, as the Cron trigger does. */
  cron(): Promise<void>
  close(): Promise<void>
}

/** Answers the entry Worker's own fetches (miniflare's `outboundService`): tests have no network. */
export type Outbound = (request: MiniflareRequest) => MiniflareResponse | Promise<MiniflareResponse>

/**
 * Starts the Worker of `entry` (default `dev`, the one with the simulator) on a fresh copy of the
 * migrated D1; `vars` override its vars in wrangler.toml, `outbound` answers its fetches.
 */
export async function startWorker(
  vars: Record<string, string> = {},
  entry: WorkerEntry = 'dev',
  outbound?: Outbound,
): Promise<WorkerPaylinks> {
  const dir = mkdtempSync(join(tmpdir(), 'paylinks-worker-'))
  // The first file of a run to get here makes both; they take about as long as each other.
  const [state] = await Promise.all([
    migratedState(dir),
    builtWorker(entry),
    ...(entry === 'production' ? [builtWorker('dashboard')] : []),
  ])
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
  /** The Worker of `which` (named `paylinks`, as miniflare's first Worker it gets the requests). */
  const entryWorker = async (overrides: Record<string, string>, which: WorkerEntry) => {
    const worker = await miniflareWorker(which, 'paylinks')
    worker.bindings = {
      ...worker.bindings,
      PUBLIC_URL: url,
      ADMIN_TOKEN: WORKER_ADMIN_TOKEN,
      CAPTCHA: 'off',
      ...overrides,
    }
    if (outbound) Object.assign(worker, { outboundService: outbound })
    return worker
  }
  const options = async (
    overrides: Record<string, string>,
    which: WorkerEntry,
    backOffice = true,
  ): Promise<MiniflareOptions> => {
    const workers = [await entryWorker(overrides, which)]
    // The production Worker's back office (wrangler.dashboard.toml), which its binding calls.
    if (which === 'production' && backOffice)
      workers.push(await miniflareWorker('dashboard', 'paylinks-dashboard'))
    return {
      workers,
      // Without it, the binding goes where `wrangler dev` sends it: to the Workers other wrangler
      // processes registered (none here), through miniflare's stand-in for them.
      ...(backOffice ? {} : { unsafeDevRegistryPath: join(dir, 'registry') }),
      d1Persist: join(state, 'v3', 'd1'),
      host: '127.0.0.1',
      port,
      cf: false,
      // The Workers' console output (one JSON line a request) is kept for assertions, not printed.
      handleRuntimeStdio(stdout: Readable, stderr: Readable) {
        collect(stdout)
        collect(stderr)
      },
    } as MiniflareOptions
  }
  const mf = new Miniflare(await options(vars, current))
  await mf.ready
  const db = drizzle(await mf.getD1Database('DB'), { schema }) as unknown as Db
  return {
    url,
    mf,
    db,
    logs,
    async restart(next, which = current, { backOffice = true } = {}) {
      current = which
      await mf.setOptions(await options(next, which, backOffice))
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
 * A browser signed in to /dashboard or about to be: keeps the session cookie each answer sets,
 * sends it with its language and client address, and follows no redirect.
 */
export function dashboardVisitor(url: () => string, language: string, clientIp: string) {
  // The session's cookie and the pre-session one the sign-in forms' tokens are bound to.
  const jar = new Map<string, string>()
  const take = (response: Response) => {
    for (const line of response.headers.getSetCookie()) {
      const [pair = ''] = line.split(';')
      const name = pair.slice(0, pair.indexOf('='))
      if (/Max-Age=0/i.test(line)) jar.delete(name)
      else jar.set(name, pair)
    }
    return response
  }
  const headers = () => ({
    cookie: [...jar.values()].join('; '),
    'accept-language': language,
    'cf-connecting-ip': clientIp,
  })
  return {
    has: () => jar.has('paylinks_session'),
    get: async (path: string) =>
      take(await fetch(`${url()}${path}`, { headers: headers(), redirect: 'manual' })),
    post: async (path: string, fields: Record<string, string>) =>
      take(await postForm(`${url()}${path}`, fields, headers())),
  }
}

/**
 * Makes `entry`'s build and options ready (once per run) for a file whose tests restart into it,
 * so that no test's time is spent on a build: call in a test file's body.
 */
export function prepareEntry(entry: WorkerEntry): void {
  beforeAll(async () => {
    await Promise.all([
      builtWorker(entry),
      workerOptionsOf(entry),
      ...(entry === 'production' ? [builtWorker('dashboard'), workerOptionsOf('dashboard')] : []),
    ])
  }, 120_000)
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
 * A local D1 migrated by wrangler (a fresh copy of the run's), behind a Miniflare with no Worker
 * of its own, for tests that hand a binding to the handler directly: call in a test file's body;
 * `d1()` is ready in tests.
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
      d1Databases: (await workerOptionsOf('production')).d1Databases,
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

/**
 * An `ASSETS` binding for the Worker's handler run in Node: what the build writes to the static
 * assets (scripts/build-worker-assets.ts), served by path from memory; 404 for anything else.
 */
export async function assetsBinding(): Promise<Fetcher> {
  const files = await workerAssets()
  const fetch = async (url: string) => {
    const text = files.get(new URL(url).pathname)
    return text === undefined ? new Response('', { status: 404 }) : new Response(text)
  }
  return { fetch } as unknown as Fetcher
}
