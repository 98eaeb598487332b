/**
 * The Worker's cold start, measured in workerd (miniflare) on the upload `wrangler deploy` sends:
 * for each sample a new workerd process (so a fresh isolate) on a local D1 migrated by `wrangler
 * d1 migrations apply --local` and holding one link, then `GET /l/:slug` twice. workerd reports
 * no CPU time per request locally (a tail Worker's `cpuTime` is 0), so the CPU is read from the
 * kernel: the sum of the run time of every workerd thread (`/proc/<pid>/task/<tid>/schedstat`,
 * nanoseconds), read while workerd is idle. That sum also holds miniflare's own entry Worker, the
 * D1 object and the HTTP plumbing; a reference Worker (one D1 query, a short answer) is measured
 * the same way in the same run, alternately, and its figures are subtracted.
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

/** CPU run by every thread of `pid` so far, in ms. */
function cpuMs(pid: number): number {
  let ns = 0
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      ns += Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0])
    } catch {
      // A thread that ended.
    }
  }
  return ns / 1e6
}

/**
 * The CPU once workerd is idle: a thread's count is exact only when it is not running, so this
 * waits until two readings 20 ms apart agree within 0.05 ms.
 */
async function settledCpuMs(pid: number): Promise<number> {
  let last = cpuMs(pid)
  for (let i = 0; i < 100; i++) {
    await new Promise((resolve) => setTimeout(resolve, 20))
    const now = cpuMs(pid)
    if (now - last < 0.05) return now
    last = now
  }
  return last
}

interface Sample {
  /** workerd's start: compiling and evaluating every Worker's modules, ms of CPU. */
  startMs: number
  firstMs: number
  secondMs: number
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
    const startMs = await settledCpuMs(pid)
    const timed = async () => {
      const before = await settledCpuMs(pid)
      const res = await mf.dispatchFetch(`${ORIGIN}${path}`)
      await res.arrayBuffer()
      if (res.status !== 200) throw new Error(`${path} answered ${res.status}`)
      return (await settledCpuMs(pid)) - before
    }
    const firstMs = await timed()
    return { startMs, firstMs, secondMs: await timed() }
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
  /** Paylinks's first request less the reference's, ms of CPU: the median, and every sample. */
  firstMs: number
  first: number[]
  /** The same for the second request of the isolate. */
  secondMs: number
  /** workerd's start with Paylinks less with the reference: compiling and evaluating the upload. */
  startMs: number
  /** The reference's own medians (what was subtracted). */
  reference: Sample
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
    const options = {
      ...(workerOptions as object),
      name: 'paylinks',
      modules: true,
      bindings: { ...workerOptions.bindings, ...VARS },
      d1Persist: join(state, 'v3', 'd1'),
      cf: false,
    }
    const slug = await seedLink({ ...options, scriptPath, modulesRoot: outdir })
    const paylinks: Sample[] = []
    const reference: Sample[] = []
    for (let i = 0; i < samples; i++) {
      reference.push(await sample({ script: REFERENCE }, options, '/'))
      paylinks.push(await sample({ scriptPath, modulesRoot: outdir }, options, `/l/${slug}`))
    }
    const ref = {
      startMs: median(reference.map((s) => s.startMs)),
      firstMs: median(reference.map((s) => s.firstMs)),
      secondMs: median(reference.map((s) => s.secondMs)),
    }
    const first = paylinks.map((s) => s.firstMs - ref.firstMs)
    return {
      firstMs: median(first),
      first,
      secondMs: median(paylinks.map((s) => s.secondMs - ref.secondMs)),
      startMs: median(paylinks.map((s) => s.startMs - ref.startMs)),
      reference: ref,
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
    what: `Worker cold start (workerd): CPU of a fresh isolate's first \`GET /l/:slug\` / its second / the isolate's start (compile and evaluate the upload); median of ${cold.samples}, the reference Worker's subtracted`,
    result: `${ms(cold.firstMs)} / ${ms(cold.secondMs)} / ${ms(cold.startMs)}`,
    goal: `first ≤ ${WORKER_FIRST_REQUEST_GOAL_MS} ms: ${met ? 'met' : '**not met**'}`,
  }
}

/** The note under the table. */
export function workerColdStartNote(cold: WorkerColdStart): string {
  const r = cold.reference
  return `Worker cold start: each sample a new workerd process (miniflare) running the upload \`wrangler deploy\` builds, sandbox mode, on a local D1 migrated by wrangler and holding one link; CPU summed over workerd's threads from /proc (workerd reports no per-request CPU locally), read when idle. A reference Worker (one D1 query, a short answer) measured alternately in the same run costs ${ms(r.firstMs)} / ${ms(r.secondMs)} for its first / second request and ${ms(r.startMs)} for workerd's start; it is subtracted. First requests, sample by sample: ${cold.first.map(ms).join(', ')}.`
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const samples = Number(process.argv.slice(2).find((a) => /^\d+$/.test(a)) ?? 7)
  const cold = await workerColdStart(samples)
  const row = workerColdStartRow(cold)
  process.stdout.write(
    `| ${row.what} | ${row.result} | ${row.goal} |\n${workerColdStartNote(cold)}\n`,
  )
}
