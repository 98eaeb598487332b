/**
 * Compiles the Node server (src/runtime/node/main.ts) and, when present, the `paylinks` command
 * (src/runtime/node/cli/main.ts) into plain JavaScript under dist/, so a production install runs
 * them with `node` alone; and the merchant SDK (src/merchant/, `paylinks/merchant`) into
 * JavaScript and type declarations under dist/merchant/.
 *
 *   node scripts/build.mjs             build both (`npm run build`)
 *   node scripts/build.mjs --if-stale  build the server only when a source is newer than dist/
 *                                      (`npm start`); without esbuild (a production install) an
 *                                      existing build is kept. dist/merchant/ is left as it is.
 *   node scripts/build.mjs --merchant [--out DIR]
 *                                      the merchant SDK only, into dist/merchant/ or DIR (`prepare`,
 *                                      run by `npm install` of the repository and by `npm pack`);
 *                                      without typescript (a production install) it builds nothing
 *
 * Plain JavaScript on purpose: `npm start` runs this in a production install, where tsx is absent.
 */
import { existsSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const DIST = join(ROOT, 'dist')
const STAMP = join(DIST, 'build.json')
/** What the server's build writes, and so removes before it builds: never dist/merchant/. */
const SERVER_OUTPUTS = ['server', 'cli', 'chunks', 'build.json']

/**
 * Every output file sits two folders below the checkout (dist/server, dist/cli, dist/chunks), so
 * the nearest db/migrations above it, which src/runtime/node/database.ts looks for, is the
 * checkout's. A flat dist/ would find none, or one beside the checkout.
 */
const ENTRIES = {
  'server/main': 'src/runtime/node/main.ts',
  'cli/main': 'src/runtime/node/cli/main.ts',
}

/**
 * Dependencies are bundled (one file to read instead of hundreds of modules: the difference
 * between 0.6 s and 0.2 s to the first request), except better-sqlite3, a native addon that
 * the checkpointer's worker thread also loads by its path.
 */
const EXTERNAL = ['better-sqlite3']

/** Bundled CommonJS dependencies call require() for Node's own modules; ESM has none. */
const BANNER =
  "import { createRequire as __paylinksRequire } from 'node:module'; const require = __paylinksRequire(import.meta.url);"

/** Files whose change calls for a new build, besides the bundle's own inputs. */
const ALSO_WATCHED = ['package.json', 'package-lock.json', 'node_modules/.package-lock.json']

async function main() {
  if (process.argv.includes('--merchant')) {
    const at = process.argv.indexOf('--out')
    await buildMerchant(
      at > 0 && process.argv[at + 1] ? resolve(process.argv[at + 1]) : MERCHANT_OUT,
    )
    return
  }
  const ifStale = process.argv.includes('--if-stale')
  if (ifStale && !stale()) return
  let esbuild
  try {
    esbuild = await import('esbuild')
  } catch {
    if (ifStale && existsSync(join(DIST, 'server', 'main.js'))) return
    fail(
      'esbuild is missing: build with the devDependencies installed (`npm ci && npm run build`).',
    )
  }
  const started = performance.now()
  const entryPoints = Object.fromEntries(
    Object.entries(ENTRIES).filter(([, source]) => existsSync(join(ROOT, source))),
  )
  for (const output of SERVER_OUTPUTS) rmSync(join(DIST, output), { recursive: true, force: true })
  // One build per entry: built together, the server and the command would share chunks cut along
  // what each uses, and the server would read 15 files at start where 10 hold the same code
  // (each file a module for Node's loader to resolve, read and link: about 5 ms of a start).
  const inputs = new Set()
  for (const [name, source] of Object.entries(entryPoints)) {
    const result = await buildOne(esbuild, { [name]: source })
    for (const file of Object.keys(result.metafile.outputs)) {
      if (file.split(/[\\/]/).length !== 3) fail(`${file} is not two folders below the checkout`)
    }
    for (const file of Object.keys(result.metafile.inputs)) {
      if (!file.includes('node_modules')) inputs.add(file)
    }
  }
  writeFileSync(STAMP, `${JSON.stringify({ inputs: [...inputs, ...ALSO_WATCHED] }, null, 1)}\n`)
  const ms = Math.round(performance.now() - started)
  const names = Object.keys(entryPoints).map((name) => `dist/${name}.js`)
  console.error(`Built ${names.join(' and ')} in ${ms} ms`)
  if (!ifStale) await buildMerchant(MERCHANT_OUT)
}

const MERCHANT_SOURCE = join(ROOT, 'src', 'merchant')
const MERCHANT_OUT = join(DIST, 'merchant')

/**
 * Compiles src/merchant/ with TypeScript itself (JavaScript and .d.ts side by side, one file per
 * module), type-checked against the web platform's globals only (no Node types): what it uses
 * must exist on Node, Workers, Deno and browsers alike. Its rootDir is src/merchant/, so an
 * import from elsewhere in Paylinks fails the build.
 */
async function buildMerchant(outDir) {
  let ts
  try {
    ts = (await import('typescript')).default
  } catch {
    console.error('typescript is missing: the merchant SDK is not built (dist/merchant/ is kept).')
    return
  }
  const started = performance.now()
  const options = {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ES2022,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
    types: [],
    strict: true,
    noUncheckedIndexedAccess: true,
    noImplicitOverride: true,
    verbatimModuleSyntax: true,
    declaration: true,
    skipLibCheck: true,
    newLine: ts.NewLineKind.LineFeed,
    rootDir: MERCHANT_SOURCE,
    outDir,
  }
  const program = ts.createProgram([join(MERCHANT_SOURCE, 'index.ts')], options)
  const before = ts.getPreEmitDiagnostics(program)
  if (before.length > 0) fail(describeDiagnostics(ts, before))
  rmSync(outDir, { recursive: true, force: true })
  const emitted = program.emit()
  if (emitted.diagnostics.length > 0) fail(describeDiagnostics(ts, emitted.diagnostics))
  const ms = Math.round(performance.now() - started)
  console.error(`Built the merchant SDK into ${relative(ROOT, outDir) || outDir} in ${ms} ms`)
}

function describeDiagnostics(ts, diagnostics) {
  return ts.formatDiagnostics(diagnostics, {
    getCanonicalFileName: (name) => name,
    getCurrentDirectory: () => ROOT,
    getNewLine: () => '\n',
  })
}

/** Bundles one entry into dist/ (its chunks under dist/chunks, named by their content). */
function buildOne(esbuild, entryPoints) {
  return esbuild.build({
    absWorkingDir: ROOT,
    entryPoints,
    outdir: DIST,
    chunkNames: 'chunks/[name]-[hash]',
    bundle: true,
    splitting: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    external: EXTERNAL,
    jsx: 'automatic',
    jsxImportSource: 'hono/jsx',
    banner: { js: BANNER },
    sourcemap: 'linked',
    sourcesContent: false,
    metafile: true,
    logLevel: 'warning',
  })
}

/** True when dist/ is missing, or one of the files it was built from changed or went away since. */
function stale() {
  if (!existsSync(STAMP)) return true
  for (const [name, source] of Object.entries(ENTRIES)) {
    if (existsSync(join(ROOT, source)) && !existsSync(join(DIST, `${name}.js`))) return true
  }
  const builtAt = statSync(STAMP).mtimeMs
  let inputs
  try {
    inputs = JSON.parse(readFileSync(STAMP, 'utf8')).inputs
  } catch {
    return true
  }
  // A new source file shows as a change to the file that imports it.
  return inputs.some((file) => {
    try {
      return statSync(join(ROOT, file)).mtimeMs > builtAt
    } catch {
      return !ALSO_WATCHED.includes(file)
    }
  })
}

function fail(message) {
  console.error(message)
  process.exit(1)
}

await main()
