/**
 * The development Worker's build command (`[env.dev.build]` of wrangler.toml): writes the static
 * assets (scripts/build-worker-assets.ts) only when a file they may be made from changed since
 * they were last written, and says which it did in one line.
 *
 * `wrangler dev` (4.86) runs a configured build command twice as it starts: once to find the
 * Worker's entry, and again when its watcher of `watch_dir` is ready, although nothing changed.
 * The second run here costs a `stat` of the sources instead of a second build. The deployed
 * Workers' build (`[build]`) always writes them, except under `npm run prod:worker`, whose two
 * Workers would build them four times as they start (scripts/dev-worker.ts sets
 * PAYLINKS_ASSETS_IF_STALE for it).
 *
 *   npx tsx scripts/build-worker-assets-if-stale.ts
 */
import { existsSync, mkdirSync, readdirSync, statSync, utimesSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
/** When the assets were last written from the sources (kept beside wrangler's local state). */
const STAMP = join(ROOT, '.wrangler', 'worker-assets.stamp')
/** What the assets are made from: the app's code and views, and the build script itself. */
const SOURCES = ['src', 'views', 'db', 'scripts/build-worker-assets.ts', 'package-lock.json']

/** The newest modification time of a file under `path`. */
function newest(path: string): number {
  if (!existsSync(path)) return 0
  const stat = statSync(path)
  if (!stat.isDirectory()) return stat.mtimeMs
  let latest = stat.mtimeMs
  for (const entry of readdirSync(path)) latest = Math.max(latest, newest(join(path, entry)))
  return latest
}

/** True when the assets are missing or a source changed after they were last written. */
export function assetsStale(): boolean {
  if (!existsSync(STAMP) || !existsSync(join(ROOT, '.worker-assets'))) return true
  const writtenAt = statSync(STAMP).mtimeMs
  return SOURCES.some((source) => newest(join(ROOT, source)) > writtenAt)
}

/**
 * Writes the assets if they are stale, with `write` (the builder, loaded only when needed unless
 * given: the builder itself passes its own, as it cannot wait on its own import); says in one line
 * which it did.
 */
export async function writeIfStale(write?: () => Promise<void>): Promise<void> {
  if (assetsStale()) {
    // The time the build starts: a source saved while it runs is newer, and builds again.
    const startedAt = new Date()
    await (write ?? (await import('./build-worker-assets.js')).writeWorkerAssets)()
    mkdirSync(dirname(STAMP), { recursive: true })
    writeFileSync(STAMP, '')
    utimesSync(STAMP, startedAt, startedAt)
    console.log('Worker assets written to .worker-assets')
  } else {
    console.log('Worker assets up to date (.worker-assets)')
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await writeIfStale()
