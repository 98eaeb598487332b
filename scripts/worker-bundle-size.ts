/**
 * Measures the two Workers exactly as `npm run deploy:worker` uploads them (`wrangler deploy
 * --dry-run --outdir`: wrangler.toml's top level, the production Worker, and
 * wrangler.dashboard.toml, its back office; minified, no simulator), gzipped, and fails when either
 * exceeds the budget or carries any of the gateway simulator's code or keys.
 * Run with `npx tsx scripts/worker-bundle-size.ts [--json]` (`npm run bench:worker-size`).
 */
import { execFile } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { gzipSync } from 'node:zlib'
import { SIMULATOR_API_KEY, SIMULATOR_SECRET_SEED } from '../src/simulator/constants.js'
import { SIMULATOR_PRIVATE_KEY_PEM } from '../src/simulator/keys.js'
import { WORKERS, type WorkerName } from './worker-configs.js'

export { WORKERS, type WorkerName } from './worker-configs.js'

/**
 * The most each gzipped upload may weigh: 200 KB (200,000 bytes; 195.3 KiB), far under the
 * 3 MB Cloudflare's free plan takes. It was 150 KB until 2026-11-28, when the back office reached
 * it with the sign-in forms' origin checks and the cashier's view of payments
 * (docs/decisions/workers.md, "The upload budget"); each Worker is measured against it.
 */
export const BUDGET_GZIP_BYTES = 200_000

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const WRANGLER = join(ROOT, 'node_modules', 'wrangler', 'bin', 'wrangler.js')

/** Strings only the gateway simulator holds: its key, credentials, inspector and fault controls. */
export const SIMULATOR_MARKERS: readonly string[] = [
  'BEGIN PRIVATE KEY',
  SIMULATOR_PRIVATE_KEY_PEM.split('\n')[1]!,
  SIMULATOR_API_KEY,
  SIMULATOR_SECRET_SEED,
  'Gateway simulator',
  '_inspect',
  '_faults',
]

export interface BundleSize {
  /** Bytes of the modules wrangler would upload (source maps excluded). */
  minifiedBytes: number
  /** Bytes of the same, gzipped at the highest level. */
  gzipBytes: number
  budgetGzipBytes: number
  withinBudget: boolean
  /** Which of SIMULATOR_MARKERS the upload contains (none, in a good build). */
  simulatorMarkers: string[]
}

/** The text of the modules wrangler would upload, from the directory its `--outdir` wrote. */
export function uploadIn(outdir: string): string {
  const modules = readdirSync(outdir).filter((f) => /\.(m?js|wasm)$/.test(f))
  if (modules.length === 0) throw new Error(`wrangler wrote no module to ${outdir}`)
  return modules.map((f) => readFileSync(join(outdir, f), 'utf8')).join('\n')
}

/** Runs `wrangler deploy --dry-run --outdir` for `worker` and returns the text of the modules it would upload. */
export async function workerUpload(worker: WorkerName = 'production'): Promise<string> {
  const outdir = mkdtempSync(join(tmpdir(), 'paylinks-bundle-'))
  try {
    // `--env ''` names the top level, which a plain `wrangler deploy` uses too.
    await promisify(execFile)(
      process.execPath,
      [
        WRANGLER,
        'deploy',
        '--dry-run',
        '--config',
        join(ROOT, WORKERS[worker]),
        '--env',
        '',
        '--outdir',
        outdir,
      ],
      {
        cwd: ROOT,
        env: {
          ...process.env,
          WRANGLER_SEND_METRICS: 'false',
          WRANGLER_HIDE_BANNER: 'true',
          CI: '1',
        },
        maxBuffer: 16 * 1024 * 1024,
      },
    )
    return uploadIn(outdir)
  } finally {
    rmSync(outdir, { recursive: true, force: true })
  }
}

/** Measures an upload's text against the budget and the simulator's markers. */
export function measureUpload(text: string): BundleSize {
  const code = Buffer.from(text, 'utf8')
  const gzipBytes = gzipSync(code, { level: 9 }).length
  const budgetGzipBytes = BUDGET_GZIP_BYTES
  return {
    minifiedBytes: code.length,
    gzipBytes,
    budgetGzipBytes,
    withinBudget: gzipBytes <= budgetGzipBytes,
    simulatorMarkers: SIMULATOR_MARKERS.filter((marker) => text.includes(marker)),
  }
}

/** Builds `worker` as `wrangler deploy` would and measures it. */
export async function measureWorkerBundle(worker: WorkerName = 'production'): Promise<BundleSize> {
  return measureUpload(await workerUpload(worker))
}

const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const sizes = {
    production: await measureWorkerBundle('production'),
    dashboard: await measureWorkerBundle('dashboard'),
  }
  if (process.argv.includes('--json')) console.log(JSON.stringify(sizes))
  for (const [worker, size] of Object.entries(sizes)) {
    if (!process.argv.includes('--json')) {
      console.log(
        `${WORKERS[worker as WorkerName]}: ${kib(size.minifiedBytes)} minified, ${kib(size.gzipBytes)} (${size.gzipBytes.toLocaleString('en')} bytes) gzipped; budget ${size.budgetGzipBytes.toLocaleString('en')} bytes — ${size.withinBudget ? 'within' : 'OVER'}`,
      )
      if (size.simulatorMarkers.length > 0)
        console.log(`  simulator code in the upload: ${size.simulatorMarkers.join(', ')}`)
    }
    if (!size.withinBudget || size.simulatorMarkers.length > 0) process.exitCode = 1
  }
}
