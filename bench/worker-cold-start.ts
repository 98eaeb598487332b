/**
 * The Worker's cold start, measured in workerd (miniflare) on the upload `wrangler deploy` sends:
 * for each sample a new workerd process (so a fresh isolate) on a local D1 migrated by `wrangler
 * d1 migrations apply --local` and holding one link, then `GET /l/:slug` twice. workerd reports
 * no CPU time per request locally (a tail Worker's `cpuTime` is 0), so the CPU is read from the
 * kernel: the run time of workerd's threads (`/proc/<pid>/task/<tid>/schedstat`, nanoseconds),
 * read while workerd is idle. The goal is judged on the threads that run JavaScript and I/O
 * (named `workerd`), the CPU time Cloudflare limits per request; V8's helper threads (`V8 …`:
 * compiling and collecting garbage in the background, beside whatever isolates the process holds)
 * are read apart, and the sum of every thread is shown too. That CPU also holds miniflare's own
 * entry Worker, the D1 object and the HTTP plumbing, so two reference Workers are measured the
 * same way in the same run, alternately: one making a single D1 query, and one making the D1
 * calls Paylinks's first request makes (recorded by running the Worker's own code on the same D1
 * before the samples). On Cloudflare D1 runs outside the Worker and its work is not the Worker's
 * CPU; here miniflare's D1 object runs inside workerd, so the second reference is the one
 * subtracted for the goal, and the first is shown beside it.
 *
 * `npx tsx bench/worker-cold-start.ts [samples]` prints the row. Where the time goes is found with
 * bench/worker-isolate.mjs: the same upload's cold start in node, with a CPU profile.
 */
import { execFile } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { Miniflare } from 'miniflare'
import { unstable_getMiniflareWorkerOptions } from 'wrangler'
import { customerWorker } from '../src/runtime/worker/customer.js'
import { createWorker } from '../src/runtime/worker/handler.js'
import type { Row } from './report.js'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const WRANGLER = join(ROOT, 'node_modules', 'wrangler', 'bin', 'wrangler.js')
const ORIGIN = 'https://pay.example.dz'
const ADMIN_TOKEN = 'bench-admin-token-0123456789abcdef'
/** The goal: the CPU of a fresh isolate's first request, in ms (the Workers free plan's limit). */
export const WORKER_FIRST_REQUEST_GOAL_MS = 10

/** The configuration of a deployed Worker in sandbox mode (wrangler.toml's vars, filled in). */
const VARS = {
  GATEWAY_MODE: 'sandbox',
  PUBLIC_URL: ORIGIN,
  GATEWAY_SITE_URL: 'https://gateway.invalid',
  MERCHANT_ACCOUNT: 'GCAZI7YBLIDJWIVEL7ETNAZGPP3LC24NO6KAOBWZHUERXQ7M5BC52DLV',
  ADMIN_TOKEN,
}

/** A Worker doing the least a Paylinks request does: one D1 query, then a short answer. */
const REFERENCE = `export default {
  async fetch(request, env) {
    const { results } = await env.DB.prepare('select 1 as one').all()
    return new Response('ok ' + results.length)
  },
}`

/** One call that reached D1: a statement run (`all`, `raw`, `first`, `run`) or a batch. */
interface D1Call {
  method: 'all' | 'raw' | 'first' | 'run' | 'batch'
  statements: { sql: string; params: unknown[] }[]
}

/**
 * A Worker making `calls` on its D1 binding, in order, then a short answer: the first request's
 * D1 work without Paylinks around it.
 */
function replayingWorker(calls: D1Call[]): string {
  return `const CALLS = ${JSON.stringify(calls)}
const statement = (db, s) => db.prepare(s.sql).bind(...s.params)
export default {
  async fetch(request, env) {
    let n = 0
    for (const call of CALLS) {
      if (call.method === 'batch') n += (await env.DB.batch(call.statements.map((s) => statement(env.DB, s)))).length
      else n += JSON.stringify(await statement(env.DB, call.statements[0])[call.method]()).length
    }
    return new Response('ok ' + n)
  },
}`
}

/** `d1` with every call that reaches the database written to `calls`. */
function recording(d1: D1Like, calls: D1Call[]): D1Like {
  const RUNS = ['all', 'raw', 'first', 'run'] as const
  const wrap = (stmt: D1StatementLike, sql: string, params: unknown[]): D1StatementLike =>
    new Proxy(stmt, {
      get(target, key) {
        const value = Reflect.get(target, key) as (...args: unknown[]) => unknown
        if (key === 'bind')
          return (...args: unknown[]) => wrap(value.apply(target, args) as never, sql, args)
        if (key === '__recorded') return { sql, params }
        if ((RUNS as readonly unknown[]).includes(key))
          return (...args: unknown[]) => {
            calls.push({ method: key as D1Call['method'], statements: [{ sql, params }] })
            return value.apply(target, args)
          }
        return typeof value === 'function' ? value.bind(target) : value
      },
    })
  return new Proxy(d1, {
    get(target, key) {
      const value = Reflect.get(target, key) as (...args: unknown[]) => unknown
      if (key === 'prepare') return (sql: string) => wrap(value.call(target, sql) as never, sql, [])
      if (key === 'batch')
        return (statements: D1StatementLike[]) => {
          calls.push({
            method: 'batch',
            statements: statements.map(
              (s) => (s as unknown as { __recorded: D1Call['statements'][0] }).__recorded,
            ),
          })
          return value.call(target, statements)
        }
      if (key === 'exec') throw new Error('the first request ran an exec: not replayed')
      return typeof value === 'function' ? value.bind(target) : value
    },
  })
}
type D1Like = object
type D1StatementLike = object

/**
 * The D1 calls of a fresh isolate's first `GET /l/:slug`, recorded by running the Worker's code
 * (as src/runtime/worker/main.ts builds it, its bindings given at the start) in this process on `options`'s D1.
 */
async function firstRequestD1Calls(options: object, slug: string): Promise<D1Call[]> {
  const mf = new Miniflare({ ...options, script: REFERENCE, handleRuntimeStdio() {} } as never)
  try {
    const calls: D1Call[] = []
    const env = { ...VARS, DB: recording(await mf.getD1Database('DB'), calls) }
    const ctx = { waitUntil() {}, passThroughOnException() {}, props: {} }
    // The Worker logs to the console (its start and request lines): not into the bench's output.
    const log = console.log
    console.log = () => {}
    let res: Response
    try {
      const worker = createWorker({ ...customerWorker, startEnv: env as never })
      res = await worker.fetch(new Request(`${ORIGIN}/l/${slug}`), env as never, ctx as never)
      await res.arrayBuffer()
    } finally {
      console.log = log
    }
    if (res.status !== 200) throw new Error(`the recorded first request answered ${res.status}`)
    if (calls.length === 0) throw new Error('the first request made no D1 call')
    return calls
  } finally {
    await mf.dispose()
  }
}

async function wrangler(args: string[]): Promise<void> {
  await promisify(execFile)(process.execPath, [WRANGLER, ...args], {
    cwd: ROOT,
    env: {
      ...process.env,
      WRANGLER_SEND_METRICS: 'false',
      WRANGLER_HIDE_BANNER: 'true',
      CLOUDFLARE_CF_FETCH_ENABLED: 'false',
      CI: '1',
    },
    maxBuffer: 16 * 1024 * 1024,
  })
}

/** The pid of the workerd process this process started (miniflare runs one per instance). */
function workerdPid(): number {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8').trim()
      const [, comm, rest] = /^\d+ \((.*)\) (.*)$/s.exec(stat) ?? []
      if (comm === 'workerd' && Number(rest?.split(' ')[1]) === process.pid) return Number(entry)
    } catch {
      // The process ended while being read.
    }
  }
  throw new Error('no workerd process found (the measurement needs Linux /proc)')
}

/** CPU run so far by `pid`'s threads, in ms: all of them, and those that are not V8's helpers. */
type Cpu = { all: number; own: number }

function cpuMs(pid: number): Cpu {
  let [all, own] = [0, 0]
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const ns = Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0])
      all += ns
      // V8's platform threads are named `V8 DefaultWorker` (cut to 15 characters by the kernel).
      if (!readFileSync(`/proc/${pid}/task/${tid}/comm`, 'utf8').startsWith('V8 ')) own += ns
    } catch {
      // A thread that ended.
    }
  }
  return { all: all / 1e6, own: own / 1e6 }
}

/**
 * The CPU once workerd is idle: a thread's count is exact only when it is not running, so this
 * waits until two readings 20 ms apart agree within 0.05 ms.
 */
async function settledCpuMs(pid: number): Promise<Cpu> {
  let last = cpuMs(pid)
  for (let i = 0; i < 100; i++) {
    await new Promise((resolve) => setTimeout(resolve, 20))
    const now = cpuMs(pid)
    if (now.all - last.all < 0.05) return now
    last = now
  }
  return last
}

interface Sample {
  /** workerd's start: compiling and evaluating every Worker's modules, ms of CPU (all threads). */
  startMs: number
  /** The first and second requests, on the threads that are not V8's helpers. */
  firstMs: number
  secondMs: number
  /** The first request on every thread, V8's helpers included. */
  firstAllMs: number
}

async function sample(
  worker: { scriptPath: string; modulesRoot: string } | { script: string },
  options: object,
  path: string,
): Promise<Sample> {
  const mf = new Miniflare({ ...options, ...worker, handleRuntimeStdio() {} } as never)
  try {
    await mf.ready
    const pid = workerdPid()
    const startMs = (await settledCpuMs(pid)).all
    const timed = async (): Promise<Cpu> => {
      const before = await settledCpuMs(pid)
      const res = await mf.dispatchFetch(`${ORIGIN}${path}`)
      await res.arrayBuffer()
      if (res.status !== 200) throw new Error(`${path} answered ${res.status}`)
      const after = await settledCpuMs(pid)
      return { all: after.all - before.all, own: after.own - before.own }
    }
    const first = await timed()
    const second = await timed()
    return { startMs, firstMs: first.own, secondMs: second.own, firstAllMs: first.all }
  } finally {
    await mf.dispose()
  }
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = Math.floor(sorted.length / 2)
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2
}

export interface WorkerColdStart {
  /**
   * Paylinks's first request less the reference making the same D1 calls, ms of CPU on the
   * threads that are not V8's helpers: the median, and every sample.
   */
  firstMs: number
  first: number[]
  /** The same on every thread, V8's helpers included: the median, and every sample. */
  firstAllMs: number
  firstAll: number[]
  /** Paylinks's first request less the reference making one D1 query (D1's own work included). */
  firstOverOneQueryMs: number
  /** The second request of the isolate (one D1 query) less the single-query reference's. */
  secondMs: number
  /** workerd's start with Paylinks less with the reference: compiling and evaluating the upload. */
  startMs: number
  /** The references' own medians: the one making a single query, and the replaying one. */
  reference: Sample
  sameD1: Sample
  /** How many D1 calls (statements) the first request made, which the second reference makes. */
  d1Calls: { calls: number; statements: number }
  samples: number
}

/** Builds the upload, migrates a local D1 with one link, and measures `samples` cold starts. */
export async function workerColdStart(samples = 7): Promise<WorkerColdStart> {
  const dir = mkdtempSync(join(tmpdir(), 'paylinks-cold-worker-'))
  try {
    const outdir = join(dir, 'upload')
    await wrangler(['deploy', '--dry-run', '--env', '', '--outdir', outdir])
    const scriptPath = join(outdir, readdirSync(outdir).find((f) => f.endsWith('.js'))!)
    const state = join(dir, 'state')
    await wrangler(['d1', 'migrations', 'apply', 'paylinks', '--local', '--persist-to', state])
    const { workerOptions } = unstable_getMiniflareWorkerOptions(join(ROOT, 'wrangler.toml'), '')
    // The checkout's first request never reaches the back office: its binding is left out (a
    // binding loads nothing of the other Worker's code).
    const { serviceBindings: _backOffice, ...production } = workerOptions
    const options = {
      ...(production as object),
      name: 'paylinks',
      modules: true,
      bindings: { ...workerOptions.bindings, ...VARS },
      d1Persist: join(state, 'v3', 'd1'),
      cf: false,
    }
    const slug = await seedLink({ ...options, scriptPath, modulesRoot: outdir })
    const calls = await firstRequestD1Calls(options, slug)
    const replaying = replayingWorker(calls)
    const paylinks: Sample[] = []
    const reference: Sample[] = []
    const sameD1: Sample[] = []
    for (let i = 0; i < samples; i++) {
      reference.push(await sample({ script: REFERENCE }, options, '/'))
      sameD1.push(await sample({ script: replaying }, options, `/l/${slug}`))
      paylinks.push(await sample({ scriptPath, modulesRoot: outdir }, options, `/l/${slug}`))
    }
    const medians = (of: Sample[]): Sample => ({
      startMs: median(of.map((s) => s.startMs)),
      firstMs: median(of.map((s) => s.firstMs)),
      secondMs: median(of.map((s) => s.secondMs)),
      firstAllMs: median(of.map((s) => s.firstAllMs)),
    })
    const [ref, same] = [medians(reference), medians(sameD1)]
    const first = paylinks.map((s) => s.firstMs - same.firstMs)
    const firstAll = paylinks.map((s) => s.firstAllMs - same.firstAllMs)
    return {
      firstMs: median(first),
      first,
      firstAllMs: median(firstAll),
      firstAll,
      firstOverOneQueryMs: median(paylinks.map((s) => s.firstMs - ref.firstMs)),
      // The second request reads no setting: one D1 query, as the single-query reference makes.
      secondMs: median(paylinks.map((s) => s.secondMs - ref.secondMs)),
      startMs: median(paylinks.map((s) => s.startMs - ref.startMs)),
      reference: ref,
      sameD1: same,
      d1Calls: {
        calls: calls.length,
        statements: calls.reduce((n, call) => n + call.statements.length, 0),
      },
      samples,
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/** Creates the link the samples ask for, through the merchant API of the Worker itself. */
async function seedLink(options: object): Promise<string> {
  const mf = new Miniflare({ ...options, handleRuntimeStdio() {} } as never)
  try {
    const res = await mf.dispatchFetch(`${ORIGIN}/api/v1/links`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': ADMIN_TOKEN },
      body: JSON.stringify({ title: 'Bench', amount: 1500, language: 'fr' }),
    })
    if (res.status !== 201) throw new Error(`creating the link answered ${res.status}`)
    return ((await res.json()) as { slug: string }).slug
  } finally {
    await mf.dispose()
  }
}

const ms = (v: number) => `${v.toFixed(1)} ms`

/** The bench table's row: the first request's CPU against its goal, the second and the start beside it. */
export function workerColdStartRow(cold: WorkerColdStart): Row {
  const met = cold.firstMs <= WORKER_FIRST_REQUEST_GOAL_MS
  return {
    what: `Worker cold start (workerd): CPU of a fresh isolate's first \`GET /l/:slug\` / its second / the isolate's start (compile and evaluate the upload); median of ${cold.samples}, a reference Worker making the same D1 calls subtracted; requests on workerd's own threads, V8's background helpers apart (every thread: first ${ms(cold.firstAllMs)}; over a reference making a single query: ${ms(cold.firstOverOneQueryMs)})`,
    result: `${ms(cold.firstMs)} / ${ms(cold.secondMs)} / ${ms(cold.startMs)}`,
    goal: `first ≤ ${WORKER_FIRST_REQUEST_GOAL_MS} ms: ${met ? 'met' : '**not met**'}`,
  }
}

/** The note under the table. */
export function workerColdStartNote(cold: WorkerColdStart): string {
  const [r, d] = [cold.reference, cold.sameD1]
  return `Worker cold start: each sample a new workerd process (miniflare) running the upload \`wrangler deploy\` builds, sandbox mode, on a local D1 migrated by wrangler and holding one link; CPU read per thread from /proc (workerd reports no per-request CPU locally), read when idle: a request's CPU is that of workerd's own threads, which run the JavaScript and the I/O (what Cloudflare limits per request); V8's helper threads, which compile and collect garbage in the background for the whole process, are counted apart (the first request on every thread: ${ms(cold.firstAllMs)}, samples ${cold.firstAll.map(ms).join(', ')}); the isolate's start is every thread's. That CPU holds miniflare's D1 object too, which on Cloudflare runs outside the Worker. Two reference Workers are measured alternately in the same run: one making a single D1 query and answering (${ms(r.firstMs)} / ${ms(r.secondMs)} for its first / second request, ${ms(r.startMs)} for workerd's start; its start and second request, which like Paylinks's second makes one D1 query, are subtracted from Paylinks's), and one making the D1 calls Paylinks's first request makes (${cold.d1Calls.calls} calls, ${cold.d1Calls.statements} statements, recorded by running the Worker's code on the same D1 first: ${ms(d.firstMs)} / ${ms(d.secondMs)}), subtracted from Paylinks's first request for the goal. Over the single-query reference, D1's own work included, the first request costs ${ms(cold.firstOverOneQueryMs)} (until 2026-11-26 the row gave that figure). First requests over the same-D1 reference, sample by sample: ${cold.first.map(ms).join(', ')}.`
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const samples = Number(process.argv.slice(2).find((a) => /^\d+$/.test(a)) ?? 7)
  const cold = await workerColdStart(samples)
  const row = workerColdStartRow(cold)
  process.stdout.write(
    `| ${row.what} | ${row.result} | ${row.goal} |\n${workerColdStartNote(cold)}\n`,
  )
}
