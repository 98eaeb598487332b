/**
 * The Worker upload's cold start in a fresh node process, for finding where the time goes (the
 * figure itself is measured in workerd by bench/worker-cold-start.ts): compiles and evaluates the
 * module wrangler built, sends it requests one after the other, and prints a `RESULT` line with
 * the CPU of each step; with PROFILE=<file> (and PROFILE_REQUEST=1 for the requests alone) it
 * writes a V8 CPU profile of them, which the upload's source map turns back into file names.
 * Plain JavaScript, run by node alone, so no TypeScript loader runs in the measured process:
 *
 *   node --experimental-vm-modules --disallow-code-generation-from-strings \
 *     bench/worker-isolate.mjs <worker.js> <d1.sqlite> '<vars JSON>' '{"path":"/l/<slug>"}' …
 *
 * (workerd forbids code generation from strings; the flag makes node refuse it too, so zod takes
 * the same path.)
 *
 * D1 is the same SQLite file that `wrangler d1 migrations apply --local` migrated, behind D1's
 * interface over better-sqlite3. On Workers D1 runs in another process; here its statements run
 * in this one, and the time they take is measured apart (`d1Us`) so it can be subtracted.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { pathToFileURL } from 'node:url'
import { SourceTextModule, SyntheticModule } from 'node:vm'

const require = createRequire(import.meta.url)
const Database = require('better-sqlite3')

const [modulePath, sqlitePath, varsJson, ...requestsJson] = process.argv.slice(2)

/** CPU of this process so far, every thread (V8's compiler and collector threads too), in µs. */
const processUs = () => {
  const { user, system } = process.cpuUsage()
  return user + system
}
let d1Us = 0
/** Runs a SQLite call, adding its CPU to `d1Us`. */
function timed(work) {
  const start = processUs()
  try {
    return work()
  } finally {
    d1Us += processUs() - start
  }
}

const sqlite = new Database(sqlitePath)
sqlite.pragma('journal_mode = WAL')
const bindable = (value) => (typeof value === 'boolean' ? (value ? 1 : 0) : value)

/** D1's prepared statement (the part drizzle-orm/d1 uses), over better-sqlite3. */
class Statement {
  constructor(sql, params = []) {
    this.sql = sql
    this.params = params
  }
  bind(...params) {
    return new Statement(this.sql, params.map(bindable))
  }
  execute(mode) {
    return timed(() => {
      const stmt = sqlite.prepare(this.sql)
      if (!stmt.reader) {
        const info = stmt.run(...this.params)
        const meta = { changes: info.changes, last_row_id: Number(info.lastInsertRowid) }
        return mode === 'raw' ? [] : { success: true, results: [], meta }
      }
      if (mode === 'raw') return stmt.raw(true).all(...this.params)
      return { success: true, results: stmt.all(...this.params), meta: {} }
    })
  }
  async all() {
    return this.execute('all')
  }
  async run() {
    return this.execute('run')
  }
  async raw() {
    return this.execute('raw')
  }
  async first(column) {
    const row = this.execute('all').results[0] ?? null
    return column && row ? row[column] : row
  }
}

const DB = {
  prepare: (sql) => new Statement(sql),
  // D1 runs a batch as one transaction.
  batch: async (statements) =>
    sqlite.transaction(() => statements.map((statement) => statement.execute('all')))(),
  exec: async (sql) => timed(() => sqlite.exec(sql)),
}

const env = { DB, ...JSON.parse(varsJson) }
const pending = []
const ctx = { waitUntil: (promise) => pending.push(promise), passThroughOnException() {} }

/**
 * Node builds its Web APIs (fetch's Request and Response from undici, WebCrypto, streams) in
 * JavaScript, on first use; workerd has them built in, in C++. They are used once here, outside
 * the measurement, so it counts Paylinks's own work and not Node's start-up.
 */
async function warmRuntime() {
  // `fetch` itself is a getter that loads undici on first read.
  if (typeof fetch !== 'function') throw new Error('no fetch')
  const key = await crypto.subtle.importKey(
    'raw',
    new TextEncoder().encode('warm-up key'),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign'],
  )
  await crypto.subtle.sign('HMAC', key, new Uint8Array(8))
  await crypto.subtle.digest('SHA-256', new Uint8Array(8))
  crypto.getRandomValues(new Uint8Array(8))
  const request = new Request('https://warm.invalid/x?y=1', {
    method: 'POST',
    headers: { 'content-type': 'text/plain' },
    body: 'warm',
  })
  await request.text()
  new URL(request.url).searchParams.get('y')
  const response = new Response(new ReadableStream({ start: (c) => c.close() }), {
    headers: new Headers({ a: 'b' }),
  })
  await response.text()
  await new Response('x').arrayBuffer()
  new TextDecoder().decode(new TextEncoder().encode('é'))
  btoa(atob('d2FybQ=='))
  new Intl.NumberFormat('fr-DZ').format(1)
  new Intl.DateTimeFormat('fr-DZ').format(0)
}
await warmRuntime()

// PROFILE=<file>: a CPU profile of the measured part alone (bench/worker-cold-start.ts --profile).
let profiler =
  process.env.PROFILE && !process.env.PROFILE_REQUEST ? await startProfiler() : undefined
async function startProfiler() {
  const { Session } = await import('node:inspector/promises')
  const session = new Session()
  session.connect()
  await session.post('Profiler.enable')
  await session.post('Profiler.setSamplingInterval', { interval: 100 })
  await session.post('Profiler.start')
  return session
}

// The module is compiled and evaluated by V8 directly (vm.SourceTextModule, with
// --experimental-vm-modules), as workerd does, without Node's module loader (file lookups, format
// detection) in the measurement. wrangler's upload is one module; it imports only the runtime's
// `cloudflare:workers` (its `env`) and `cloudflare:sockets` (mail's SMTP connections).
const source = readFileSync(modulePath, 'utf8')
let start = processUs()
const module = new SourceTextModule(source, { identifier: pathToFileURL(modulePath).href })
const compileUs = processUs() - start
await module.link((specifier) => {
  if (specifier === 'cloudflare:sockets') {
    // Mail over SMTP (src/runtime/worker/mail-transport.ts): no request measured here opens a socket.
    return new SyntheticModule(['connect'], function init() {
      this.setExport('connect', () => {
        throw new Error('no sockets in this measurement')
      })
    })
  }
  if (specifier !== 'cloudflare:workers') throw new Error(`the upload imports ${specifier}`)
  return new SyntheticModule(['env'], function init() {
    this.setExport('env', env)
  })
})
start = processUs()
await module.evaluate()
// What the module's start left running (the Worker's warm-up: WebCrypto, which node runs off
// the main thread, and promises) finishes before the first request, as in workerd, which runs
// every microtask of a module's evaluation before the isolate takes a request.
await new Promise((resolve) => setTimeout(resolve, 100))
const evaluation = { compileUs, evaluateUs: processUs() - start }
const worker = module.namespace.default

if (process.env.PROFILE_REQUEST) profiler = await startProfiler()
const requests = []
for (const json of requestsJson) {
  const { method = 'GET', path, headers = {}, body } = JSON.parse(json)
  d1Us = 0
  const p = processUs()
  const request = new Request(`${env.PUBLIC_URL}${path}`, { method, headers, body })
  const response = await worker.fetch(request, env, ctx)
  const text = await response.text()
  await Promise.allSettled(pending.splice(0))
  requests.push({
    path,
    status: response.status,
    cpuUs: processUs() - p,
    d1Us,
    text: response.status >= 300 ? text.slice(0, 300) : text.length > 2000 ? '' : text,
  })
}
if (profiler) {
  const { profile } = await profiler.post('Profiler.stop')
  writeFileSync(process.env.PROFILE, JSON.stringify(profile))
}
process.stdout.write(`\nRESULT ${JSON.stringify({ evaluation, requests })}\n`)
sqlite.close()
