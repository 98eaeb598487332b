/**
 * The two Worker uploads, as `npm run deploy:worker` sends them (minified by their wrangler
 * files) and gzipped: the production Worker (wrangler.toml) and its back office
 * (wrangler.dashboard.toml), measured by scripts/worker-bundle-size.ts.
 */
import { fileURLToPath } from 'node:url'
import {
  BUDGET_GZIP_BYTES,
  measureWorkerBundle,
  WORKERS,
  type WorkerName,
} from '../scripts/worker-bundle-size.js'
import { kib, type Row } from './report.js'

export interface Bundle {
  worker: WorkerName
  minifiedBytes: number
  gzipBytes: number
}

/** Measures both Workers' uploads. */
export async function workerBundles(): Promise<Bundle[]> {
  const bundles: Bundle[] = []
  for (const worker of Object.keys(WORKERS) as WorkerName[]) {
    const size = await measureWorkerBundle(worker)
    bundles.push({ worker, minifiedBytes: size.minifiedBytes, gzipBytes: size.gzipBytes })
  }
  return bundles
}

const WHAT: Record<WorkerName, string> = {
  production:
    'Worker upload: the production Worker (checkout, receipts, webhooks, API, Cron; wrangler.toml), minified / gzipped',
  dashboard:
    'Worker upload: its back office (dashboard and till; wrangler.dashboard.toml), minified / gzipped',
}

/** The bench table's row for one upload, against the goal (200 KB = 200,000 bytes, gzipped). */
export function bundleRow(bundle: Bundle): Row {
  const met = bundle.gzipBytes <= BUDGET_GZIP_BYTES
  return {
    what: WHAT[bundle.worker],
    result: `${kib(bundle.minifiedBytes)} / ${kib(bundle.gzipBytes)} (${bundle.gzipBytes.toLocaleString('en')} bytes)`,
    goal: `≤ 200 KB (${BUDGET_GZIP_BYTES.toLocaleString('en')} bytes) gzipped: ${met ? 'met' : '**not met**'}`,
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  // `npx tsx bench/bundle.ts`: these rows alone, without running the whole bench.
  for (const bundle of await workerBundles()) {
    const row = bundleRow(bundle)
    process.stdout.write(`| ${row.what} | ${row.result} | ${row.goal} |\n`)
  }
}
