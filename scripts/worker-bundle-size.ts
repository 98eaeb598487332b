/**
 * Reports the Worker bundle size, minified and gzipped, from `wrangler deploy --dry-run --outdir`
 * (what Cloudflare's upload limit counts), and fails when it exceeds the budget.
 * Run with `npx tsx scripts/worker-bundle-size.ts [--json]`.
 */
import { execFile } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { gzipSync } from 'node:zlib'

/** The budget of the gzipped bundle, in KiB. */
export const BUDGET_GZIP_KIB = 250

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const WRANGLER = join(ROOT, 'node_modules', 'wrangler', 'bin', 'wrangler.js')

export interface BundleSize {
  /** Bytes of the minified modules wrangler would upload (source maps excluded). */
  minifiedBytes: number
  /** Bytes of the same, gzipped at the highest level. */
  gzipBytes: number
  budgetGzipBytes: number
  withinBudget: boolean
}

/** Builds the Worker as `wrangler deploy --minify` would and measures it. */
export async function measureWorkerBundle(): Promise<BundleSize> {
  const outdir = mkdtempSync(join(tmpdir(), 'paylinks-bundle-'))
  try {
    await promisify(execFile)(
      process.execPath,
      [WRANGLER, 'deploy', '--dry-run', '--minify', '--outdir', outdir],
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
    const modules = readdirSync(outdir).filter((f) => /\.(m?js|wasm)$/.test(f))
    if (modules.length === 0) throw new Error(`wrangler wrote no module to ${outdir}`)
    const code = Buffer.concat(modules.map((f) => readFileSync(join(outdir, f))))
    const minifiedBytes = modules.reduce((sum, f) => sum + statSync(join(outdir, f)).size, 0)
    const gzipBytes = gzipSync(code, { level: 9 }).length
    const budgetGzipBytes = BUDGET_GZIP_KIB * 1024
    return { minifiedBytes, gzipBytes, budgetGzipBytes, withinBudget: gzipBytes <= budgetGzipBytes }
  } finally {
    rmSync(outdir, { recursive: true, force: true })
  }
}

const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const size = await measureWorkerBundle()
  if (process.argv.includes('--json')) console.log(JSON.stringify(size))
  else {
    console.log(
      `Worker bundle: ${kib(size.minifiedBytes)} minified, ${kib(size.gzipBytes)} gzipped`,
    )
    console.log(
      `Budget: ${kib(size.budgetGzipBytes)} gzipped — ${size.withinBudget ? 'within' : 'OVER'} budget`,
    )
  }
  if (!size.withinBudget) process.exitCode = 1
}
