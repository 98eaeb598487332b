/**
 * The Worker bundle with its D1 binding metered: a small module in front of the bundle hands it a
 * D1 binding that adds up each statement's `meta.rows_read` for the current request (the tally is
 * reset by every request and read back at `/__d1-tally`). Requests must come one at a time.
 */
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { basename, dirname, join } from 'node:path'
import type { Readable } from 'node:stream'
import { Miniflare } from 'miniflare'
import { builtWorker, migratedState, WORKER_ADMIN_TOKEN, workerOptionsOf } from './support.js'

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

/** What the D1 binding did while the Worker answered the last request. */
export type D1Tally = { statements: number; rowsRead: number; unmeasured: number }

// Runs inside workerd. drizzle reads rows through raw(), which returns no meta: all() returns the
// same rows with their meta, turned into arrays in column order as drizzle's own batch path does.
const meterModule = (bundle: string) => `
import worker from './${bundle}'
let tally = { statements: 0, rowsRead: 0, unmeasured: 0 }
const originals = new WeakMap()
const add = (meta) => { tally.statements++; tally.rowsRead += meta.rows_read }
const pass = (target, prop) => {
  const value = Reflect.get(target, prop, target)
  return typeof value === 'function' ? value.bind(target) : value
}
function statement(stmt) {
  const proxy = new Proxy(stmt, {
    get(target, prop) {
      if (prop === 'bind') return (...args) => statement(target.bind(...args))
      if (prop === 'all' || prop === 'run')
        return async () => { const r = await target[prop](); add(r.meta); return r }
      if (prop === 'raw')
        return async (options) => {
          const r = await target.all()
          add(r.meta)
          const rows = r.results.map((row) => Object.keys(row).map((k) => row[k]))
          return options && options.columnNames ? [Object.keys(r.results[0] ?? {}), ...rows] : rows
        }
      if (prop === 'first')
        return async (column) => {
          const r = await target.all()
          add(r.meta)
          const row = r.results[0] ?? null
          return column === undefined ? row : row === null ? null : row[column]
        }
      return pass(target, prop)
    },
  })
  originals.set(proxy, stmt)
  return proxy
}
function database(db) {
  return new Proxy(db, {
    get(target, prop) {
      if (prop === 'prepare') return (sql) => statement(target.prepare(sql))
      if (prop === 'batch')
        return async (list) => {
          const results = await target.batch(list.map((s) => originals.get(s) ?? s))
          for (const r of results) add(r.meta)
          return results
        }
      if (prop === 'exec') return async (sql) => { tally.unmeasured++; return target.exec(sql) }
      return pass(target, prop)
    },
  })
}
let metered
export default {
  async fetch(request, env, ctx) {
    if (new URL(request.url).pathname === '/__d1-tally') return Response.json(tally)
    tally = { statements: 0, rowsRead: 0, unmeasured: 0 }
    metered ??= { ...env, DB: database(env.DB) }
    return worker.fetch(request, metered, ctx)
  },
  scheduled(controller, env, ctx) {
    return worker.scheduled(controller, env, ctx)
  },
}
`

export interface MeteredWorker {
  mf: Miniflare
  url: string
  /** Fetches `path` from the Worker; returns its status, body and what D1 did for it. */
  get(path: string): Promise<{ status: number; body: string; tally: D1Tally }>
  close(): Promise<void>
}

/** Starts the `dev` entry's bundle behind the meter, on a fresh copy of the migrated D1. */
export async function startMeteredWorker(): Promise<MeteredWorker> {
  const dir = mkdtempSync(join(tmpdir(), 'paylinks-d1-meter-'))
  const [state, built] = await Promise.all([migratedState(dir), builtWorker('dev')])
  // The run's build is shared: the meter goes next to this file's own copy of it.
  cpSync(dirname(built), join(dir, 'dev'), { recursive: true })
  const bundle = join(dir, 'dev', basename(built))
  const meter = join(dirname(bundle), 'meter.mjs')
  writeFileSync(meter, meterModule(basename(bundle)))
  const workerOptions = await workerOptionsOf('dev')
  const port = await freePort()
  const url = `http://127.0.0.1:${port}`
  const drain = (stream: Readable) => stream.resume()
  const mf = new Miniflare({
    ...(workerOptions as object),
    name: 'paylinks',
    modules: true,
    scriptPath: meter,
    modulesRoot: dirname(bundle),
    // The bundle is an ES module imported by the meter (by default an imported .js is CommonJS).
    modulesRules: [{ type: 'ESModule', include: ['**/*.js', '**/*.mjs'] }],
    bindings: {
      ...workerOptions.bindings,
      PUBLIC_URL: url,
      ADMIN_TOKEN: WORKER_ADMIN_TOKEN,
      CAPTCHA: 'off',
    },
    d1Persist: join(state, 'v3', 'd1'),
    host: '127.0.0.1',
    port,
    cf: false,
    handleRuntimeStdio(stdout: Readable, stderr: Readable) {
      drain(stdout)
      drain(stderr)
    },
  })
  await mf.ready
  return {
    mf,
    url,
    async get(path) {
      const res = await fetch(`${url}${path}`)
      const body = await res.text()
      const tally = (await (await fetch(`${url}/__d1-tally`)).json()) as D1Tally
      return { status: res.status, body, tally }
    },
    async close() {
      await mf.dispose()
      rmSync(dir, { recursive: true, force: true })
    },
  }
}
