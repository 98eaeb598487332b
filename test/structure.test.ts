/**
 * The structure drawn from the imports: no cycles; src/lib stands on its own; the client is the
 * client and src/lib; its inside is reached only through src/client/index.ts; the simulator is
 * written apart from what it checks (its own amounts and StrKeys, not src/lib's); and the layers
 * point down: domain below the API, data below the dashboard, auth and the API, mail below the
 * routes, the outbox below its two channels (mail, the outbound webhooks), which never import each
 * other, the dependencies' types (src/deps.ts) below the modules that read them, the views below
 * src/dashboard (but for the words and form models listed below); the merchant API is one folder
 * per resource, each with the same parts. The runtimes are fenced:
 * each of src/runtime/node and src/runtime/worker is imported only by itself, the app they
 * assemble (src/app) only by them, and src/ keeps a handful of files at its top. Libraries are
 * reached through their published entry points only.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'
import { findCycles, type ImportGraph, readImportGraph } from './support/import-graph.js'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const packageJson = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  exports: unknown
}
const { graph, unresolved } = readImportGraph(ROOT, ['src', 'views', 'db'])

/** Every import `from -> to` with `from` matching `where` and `to` refused by `allowed`. */
function importsBreaking(
  where: (file: string) => boolean,
  allowed: (target: string, file: string) => boolean,
): string[] {
  const out: string[] = []
  for (const [file, targets] of graph) {
    if (!where(file)) continue
    for (const target of targets) if (!allowed(target, file)) out.push(`${file} -> ${target}`)
  }
  return out.sort()
}

const inside = (folder: string) => (file: string) => file.startsWith(`${folder}/`)

describe('the import graph', () => {
  it('is read from every source file, type-only and dynamic imports included', () => {
    expect(unresolved).toEqual([])
    expect(graph.size).toBeGreaterThan(100)
    expect(graph.get('src/app/index.ts')).toContain('src/deps.ts')
    // `import type`, and `import()` with a literal.
    expect(graph.get('src/payments/confirm.ts')).toContain('db/schema.ts')
    expect(graph.get('src/runtime/node/runtime.ts')).toContain('src/simulator/index.ts')
    expect(graph.has('views/checkout.tsx')).toBe(true)
  })

  it('finds each cycle and names its files in order, and none in a graph without one', () => {
    const tangled: ImportGraph = new Map([
      ['a.ts', ['b.ts']],
      ['b.ts', ['c.ts', 'd.ts']],
      ['c.ts', ['a.ts']],
      ['d.ts', []],
      ['e.ts', ['e.ts']],
    ])
    expect(findCycles(tangled)).toEqual(['a.ts -> b.ts -> c.ts -> a.ts', 'e.ts -> e.ts'])
    const tree: ImportGraph = new Map([
      ['a.ts', ['b.ts', 'c.ts']],
      ['b.ts', ['c.ts']],
      ['c.ts', []],
    ])
    expect(findCycles(tree)).toEqual([])
  })
})

describe('the structure of src, views and db', () => {
  it('has no import cycles', () => {
    expect(findCycles(graph)).toEqual([])
  })

  it('src/lib imports nothing of Paylinks outside src/lib', () => {
    expect(importsBreaking(inside('src/lib'), inside('src/lib'))).toEqual([])
  })

  it('the client imports only the client and src/lib', () => {
    const allowed = (target: string) => inside('src/client')(target) || inside('src/lib')(target)
    expect(importsBreaking(inside('src/client'), allowed)).toEqual([])
  })

  it('outside the client, only src/client/index.ts is imported (src/runtime/node/client.ts excepted)', () => {
    const outsideClient = (file: string) =>
      !inside('src/client')(file) && file !== 'src/runtime/node/client.ts'
    const allowed = (target: string) =>
      !inside('src/client')(target) || target === 'src/client/index.ts'
    expect(importsBreaking(outsideClient, allowed)).toEqual([])
  })

  it('the merchant SDK imports only itself, and no package; nothing of Paylinks imports it', () => {
    // scripts/build.mjs compiles src/merchant alone into `paylinks/merchant`, which has no dependency.
    expect(importsBreaking(inside('src/merchant'), inside('src/merchant'))).toEqual([])
    expect(
      importsBreaking(
        (file) => !inside('src/merchant')(file),
        (t) => !inside('src/merchant')(t),
      ),
    ).toEqual([])
    const packages: string[] = []
    for (const name of readdirSync(join(ROOT, 'src/merchant'))) {
      const text = readFileSync(join(ROOT, 'src/merchant', name), 'utf8')
      for (const { fileName } of ts.preProcessFile(text, true, true).importedFiles)
        if (!fileName.startsWith('./')) packages.push(`src/merchant/${name} -> ${fileName}`)
    }
    expect(packages).toEqual([])
  })

  it('the simulator imports only itself and src/lib, and neither src/lib money nor StrKey', () => {
    // Written apart from the code it checks: a bug in amounts or StrKeys must not pass on both sides.
    const own = new Set(['src/lib/money.ts', 'src/lib/strkey.ts'])
    const allowed = (target: string) =>
      inside('src/simulator')(target) || (inside('src/lib')(target) && !own.has(target))
    expect(importsBreaking(inside('src/simulator'), allowed)).toEqual([])
  })
})

/**
 * The files src/ may keep at its top: what every part of Paylinks reads (the configuration, the
 * logger, the background tracker, the dependencies' types). Everything else lives in a folder.
 */
const TOP_LEVEL_FILES = ['background.ts', 'config.ts', 'deps.ts', 'log.ts']

describe('the runtimes are fenced', () => {
  for (const side of ['node', 'worker'] as const) {
    it(`only src/runtime/${side} imports src/runtime/${side}`, () => {
      const own = inside(`src/runtime/${side}`)
      expect(
        importsBreaking(
          (file) => !own(file),
          (target) => !own(target),
        ),
      ).toEqual([])
    })
  }

  it('src/runtime/node never imports src/runtime/worker, nor the other way round', () => {
    expect(reachingUp('src/runtime/node', ['src/runtime/worker'])).toEqual([])
    expect(reachingUp('src/runtime/worker', ['src/runtime/node'])).toEqual([])
  })

  it('src/app, which assembles the app, is imported only by the runtimes (and itself)', () => {
    const allowed = (target: string, file: string) =>
      !inside('src/app')(target) || inside('src/runtime')(file) || inside('src/app')(file)
    expect(importsBreaking(() => true, allowed)).toEqual([])
  })

  it('src/deps.ts, which some 40 modules import, holds types only, so it pulls in no code', () => {
    const text = readFileSync(join(ROOT, 'src/deps.ts'), 'utf8')
    expect(text.match(/^(import|export)\s+(?!type\b|interface\b)\S.*$/gm) ?? []).toEqual([])
    expect(graph.get('src/deps.ts')?.filter((target) => inside('src/app')(target))).toEqual([])
  })

  it(`src/ keeps only ${TOP_LEVEL_FILES.join(', ')} at its top`, () => {
    const files = readdirSync(join(ROOT, 'src'), { withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => entry.name)
      .sort()
    expect(files).toEqual(TOP_LEVEL_FILES)
  })
})

/** Every import `from -> to` with `from` inside `folder` and `to` inside one of `above`. */
const reachingUp = (folder: string, above: readonly string[]) =>
  importsBreaking(inside(folder), (target) => !above.some((up) => inside(up)(target)))

describe('the layers point down', () => {
  it('src/domain never imports src/api', () => {
    expect(reachingUp('src/domain', ['src/api'])).toEqual([])
  })

  it('src/data never imports src/dashboard nor src/auth', () => {
    expect(reachingUp('src/data', ['src/dashboard', 'src/auth'])).toEqual([])
  })

  it('src/data never imports src/api', () => {
    expect(reachingUp('src/data', ['src/api'])).toEqual([])
  })

  it('src/mail never imports src/routes', () => {
    expect(reachingUp('src/mail', ['src/routes'])).toEqual([])
  })

  // Mail and the outbound webhooks are two channels of one outbox: what they share (the table's
  // queries, the retry schedule, the sender and its runner) is src/outbox, which imports neither.
  it('src/mail never imports the outbound-webhook folder', () => {
    expect(reachingUp('src/mail', ['src/outbound-webhooks'])).toEqual([])
  })

  it('the outbound webhooks never import src/mail', () => {
    expect(reachingUp('src/outbound-webhooks', ['src/mail'])).toEqual([])
  })

  it('src/outbox imports neither of its channels, mail nor the outbound webhooks', () => {
    expect(reachingUp('src/outbox', ['src/mail', 'src/outbound-webhooks'])).toEqual([])
  })

  // The dependencies' types are imported by some 40 modules of every layer, so what they import
  // must stand below all of those: a type deps.ts needs from above moves down (into deps.ts, or
  // src/domain or src/lib). biome.json's src/deps.ts override says the same.
  const DEPS_MAY_IMPORT = {
    folders: ['db', 'src/data', 'src/domain', 'src/i18n', 'src/lib'],
    files: ['src/background.ts', 'src/client/index.ts', 'src/config.ts', 'src/log.ts'],
  }
  // Today's exception, to strike off, never to add to: the dashboard kit's type, whose words'
  // keys are those of the English table (src/dashboard/messages-en.ts), a value.
  const DEPS_MAY_STILL_IMPORT = ['src/dashboard/kit.ts']

  it('src/deps.ts imports only the layers below it', () => {
    const allowed = (target: string) =>
      DEPS_MAY_IMPORT.folders.some((folder) => inside(folder)(target)) ||
      DEPS_MAY_IMPORT.files.includes(target) ||
      DEPS_MAY_STILL_IMPORT.includes(target)
    expect(importsBreaking((file) => file === 'src/deps.ts', allowed)).toEqual([])
    expect(DEPS_MAY_STILL_IMPORT.filter((t) => !graph.get('src/deps.ts')?.includes(t))).toEqual([])
  })

  // Today's exceptions, to move down and strike off, never to add to: the dashboard's words and
  // kit (the DashKey, DashTranslate and DashScripts types every dashboard view takes) and the
  // form and page models the dashboard's routes build for its views. biome.json's views/**
  // override lists the same modules.
  const VIEWS_MAY_STILL_IMPORT = [
    'src/dashboard/kit.ts',
    'src/dashboard/link-form.ts',
    'src/dashboard/messages.ts',
    'src/dashboard/payment-filters.ts',
    'src/dashboard/settings-form.ts',
    'src/dashboard/share-links.ts',
    'src/dashboard/till-report.ts',
    'src/dashboard/till-sale.ts',
    'src/dashboard/webhook-form.ts',
  ]

  it('views never import src/dashboard, but for the listed modules', () => {
    const allowed = (target: string) =>
      !inside('src/dashboard')(target) || VIEWS_MAY_STILL_IMPORT.includes(target)
    expect(importsBreaking(inside('views'), allowed)).toEqual([])
  })

  it('lists only modules the views still import, so the list shrinks as they move', () => {
    const imported = new Set(
      [...graph].filter(([file]) => inside('views')(file)).flatMap(([, t]) => t),
    )
    expect(VIEWS_MAY_STILL_IMPORT.filter((target) => !imported.has(target))).toEqual([])
  })
})

describe('the merchant API, one folder per resource', () => {
  const API = 'src/api'
  const RESOURCES = readdirSync(join(ROOT, API), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort()
  /** The parts of every resource: its routes, bodies and queries, objects, their schemas, OpenAPI. */
  const PARTS = ['object-schemas.ts', 'objects.ts', 'openapi.ts', 'routes.ts', 'schemas.ts']
  // A resource's own further modules, named here so a new one is a choice.
  const OWN = ['checkouts/audit.ts', 'checkouts/input.ts', 'links/input.ts']

  it('holds a folder for each resource the API serves', () => {
    expect(RESOURCES).toEqual([
      'api-keys',
      'audit',
      'checkouts',
      'links',
      'payments',
      'products',
      'promo-codes',
      'webhook-endpoints',
    ])
  })

  it('names the parts of each resource alike', () => {
    for (const resource of RESOURCES) {
      const files = readdirSync(join(ROOT, API, resource)).sort()
      const own = OWN.filter((f) => f.startsWith(`${resource}/`)).map((f) => f.split('/')[1])
      expect([resource, files]).toEqual([resource, [...PARTS, ...own].sort()])
    }
  })

  it("keeps each resource's routes to the API's router: no other module imports them", () => {
    const routes = RESOURCES.map((resource) => `${API}/${resource}/routes.ts`)
    const importers = [...graph]
      .filter(([, targets]) => targets.some((target) => routes.includes(target)))
      .map(([file]) => file)
    expect(importers).toEqual(['src/routes/api.ts'])
  })

  it('has the shared parts (errors, bodies, queries, the document) import no resource but for the document', () => {
    // The document's assembly (paths and components) gathers every resource's part.
    const ASSEMBLY = [
      'src/api/openapi-examples.ts',
      'src/api/openapi-paths.ts',
      'src/api/openapi-schemas.ts',
    ]
    const shared = (file: string) =>
      inside(API)(file) && !file.slice(API.length + 1).includes('/') && !ASSEMBLY.includes(file)
    const resource = (target: string) => RESOURCES.some((r) => inside(`${API}/${r}`)(target))
    expect(importsBreaking(shared, (target) => !resource(target))).toEqual([])
  })
})

/**
 * The packages' specifiers the code imports for their values (type-only imports and declaration
 * files are erased before any bundle sees them), as `file: specifier`.
 */
function packageImports(dirs: readonly string[]): string[] {
  const out: string[] = []
  const files = dirs.flatMap((dir) =>
    readdirSync(join(ROOT, dir), { recursive: true, encoding: 'utf8' })
      .filter((f) => /\.(tsx?|m?js)$/.test(f) && !f.endsWith('.d.ts'))
      .map((f) => `${dir}/${f}`),
  )
  for (const file of files) {
    const text = readFileSync(join(ROOT, file), 'utf8')
    const specifiers = ts.preProcessFile(text, true, true).importedFiles.map((f) => f.fileName)
    for (const specifier of new Set(specifiers)) {
      if (/^(\.|node:|cloudflare:)/.test(specifier)) continue
      // A value import or re-export (an import clause holds no quote), or an `import()`.
      const quoted = `['"]${specifier.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}['"]`
      const value = new RegExp(
        `(^|\\n)\\s*(import|export)\\s+(?!type\\b)[^'"]*?from\\s*${quoted}|import\\(\\s*${quoted}`,
      )
      if (value.test(text)) out.push(`${file}: ${specifier}`)
    }
  }
  return out
}

/** Whether `subpath` (`.` or `./x`) is one of the entry points a package.json `exports` publishes. */
function published(exports: unknown, subpath: string): boolean {
  if (exports === undefined) return subpath === '.'
  if (typeof exports === 'string' || !Object.keys(exports as object)[0]?.startsWith('.'))
    return subpath === '.'
  return Object.keys(exports as object).some((key) => {
    const star = key.indexOf('*')
    if (star < 0) return key === subpath
    return subpath.startsWith(key.slice(0, star)) && subpath.endsWith(key.slice(star + 1))
  })
}

describe('libraries', () => {
  it('are imported only through their published entry points (package.json "exports")', () => {
    // A library's inner module can move or change in any release; its entry points are its promise.
    const found = packageImports(['src', 'views', 'db'])
    expect(found.length).toBeGreaterThan(100)
    const inner = found.filter((entry) => {
      const specifier = entry.slice(entry.indexOf(': ') + 2)
      const parts = specifier.split('/')
      const name = specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!
      const rest = specifier.slice(name.length)
      if (name === 'paylinks') return !published(packageJson.exports, `.${rest}`)
      const manifest = JSON.parse(
        readFileSync(join(ROOT, 'node_modules', name, 'package.json'), 'utf8'),
      ) as { exports?: unknown }
      return !published(manifest.exports, rest === '' ? '.' : `.${rest}`)
    })
    expect(inner).toEqual([])
  })

  it('tells a published entry point from an inner module', () => {
    const exports = { '.': './index.js', './mini': './mini.js', './utils/*': './utils/*.js' }
    expect(published(exports, '.')).toBe(true)
    expect(published(exports, './mini')).toBe(true)
    expect(published(exports, './utils/cookie')).toBe(true)
    expect(published(exports, './v4/core/json-schema-processors.js')).toBe(false)
    expect(published(undefined, '.')).toBe(true)
    expect(published(undefined, './lib/inner.js')).toBe(false)
  })
})
