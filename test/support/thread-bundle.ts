/**
 * A TypeScript module that tests run in worker threads, bundled once per run into one plain
 * JavaScript file (esbuild, as `npm run build` bundles the server): each thread loads that file
 * instead of registering tsx and compiling Paylinks' sources afresh, which took most of the time
 * of the tests that race 20 threads against one database.
 */
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { madeOncePerRun } from './run-cache.js'

/** Bundled CommonJS dependencies call require() for Node's own modules; ESM has none. */
const BANNER =
  "import { createRequire as __testRequire } from 'node:module'; const require = __testRequire(import.meta.url);"

/**
 * The URL of `entry` bundled for threads (`new Worker(url)`), made once per run under `name`.
 * better-sqlite3 stays a package of its own (a native addon); the run's cache sits inside the
 * checkout, so the bundle finds the checkout's db/migrations as the sources do.
 */
export async function bundledForThreads(entry: URL, name: string): Promise<URL> {
  const file = `${name}.mjs`
  const dir = await madeOncePerRun(`thread-${name}`, async (out) => {
    const esbuild = await import('esbuild')
    await esbuild.build({
      entryPoints: [fileURLToPath(entry)],
      outfile: join(out, file),
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      external: ['better-sqlite3'],
      banner: { js: BANNER },
      logLevel: 'warning',
    })
  })
  return pathToFileURL(join(dir, file))
}
