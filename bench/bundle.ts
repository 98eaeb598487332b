/**
 * The Worker bundle, minified and gzipped: scripts/worker-bundle-size.ts when the checkout has it,
 * else the same measurement here (`wrangler deploy --dry-run --minify --outdir`, gzip level 9).
 */
import { execFile } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { promisify } from 'node:util'
import { gzipSync } from 'node:zlib'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const SCRIPT = join(ROOT, 'scripts', 'worker-bundle-size.ts')

export interface Bundle {
  minifiedBytes: number
  gzipBytes: number
  source: 'scripts/worker-bundle-size.ts' | 'wrangler dry run'
}

async function measureHere(): Promise<Omit<Bundle, 'source'>> {
  const outdir = mkdtempSync(join(tmpdir(), 'paylinks-bench-bundle-'))
  try {
    await promisify(execFile)(
      process.execPath,
      [
        join(ROOT, 'node_modules', 'wrangler', 'bin', 'wrangler.js'),
        'deploy',
        '--dry-run',
        '--minify',
        '--outdir',
        outdir,
      ],
      { cwd: ROOT, env: { ...process.env, WRANGLER_SEND_METRICS: 'false', CI: '1' } },
    )
    const files = readdirSync(outdir).filter((f) => /\.(m?js|wasm)$/.test(f))
    const code = Buffer.concat(files.map((f) => readFileSync(join(outdir, f))))
    return { minifiedBytes: code.length, gzipBytes: gzipSync(code, { level: 9 }).length }
  } finally {
    rmSync(outdir, { recursive: true, force: true })
  }
}

/** Measures the Worker bundle. */
export async function workerBundle(): Promise<Bundle> {
  if (existsSync(SCRIPT)) {
    const script = (await import(pathToFileURL(SCRIPT).href)) as {
      measureWorkerBundle?: () => Promise<{ minifiedBytes: number; gzipBytes: number }>
    }
    if (script.measureWorkerBundle) {
      const size = await script.measureWorkerBundle()
      return {
        minifiedBytes: size.minifiedBytes,
        gzipBytes: size.gzipBytes,
        source: 'scripts/worker-bundle-size.ts',
      }
    }
  }
  return { ...(await measureHere()), source: 'wrangler dry run' }
}
