/**
 * The structure drawn from the imports: no cycles; src/lib stands on its own; the client is the
 * client and src/lib; its inside is reached only through src/client/index.ts; the simulator is
 * written apart from what it checks (its own amounts and StrKeys, not src/lib's); and the layers
 * point down: domain below the API, data below the dashboard, auth and the API, mail below the
 * routes, the outbox below its two channels (mail, the outbound webhooks), which never import each
 * other, the views below src/dashboard (but for the words and form models listed below); and the
 * merchant API is one folder per resource, each with the same parts.
 */
import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { findCycles, type ImportGraph, readImportGraph } from './support/import-graph.js'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
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
    expect(graph.get('src/app.ts')).toContain('src/app-deps.ts')
    // `import type`, and `import()` with a literal.
    expect(graph.get('src/payments/confirm.ts')).toContain('db/schema.ts')
    expect(graph.get('src/node/runtime.ts')).toContain('src/simulator/index.ts')
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

  it('outside the client, only src/client/index.ts is imported (src/node/client.ts excepted)', () => {
    const outsideClient = (file: string) =>
      !inside('src/client')(file) && file !== 'src/node/client.ts'
    const allowed = (target: string) =>
      !inside('src/client')(target) || target === 'src/client/index.ts'
    expect(importsBreaking(outsideClient, allowed)).toEqual([])
  })

  it('the simulator imports only itself and src/lib, and neither src/lib money nor StrKey', () => {
    // Written apart from the code it checks: a bug in amounts or StrKeys must not pass on both sides.
    const own = new Set(['src/lib/money.ts', 'src/lib/strkey.ts'])
    const allowed = (target: string) =>
      inside('src/simulator')(target) || (inside('src/lib')(target) && !own.has(target))
    expect(importsBreaking(inside('src/simulator'), allowed)).toEqual([])
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
  const OWN = ['links/input.ts']

  it('holds a folder for each resource the API serves', () => {
    expect(RESOURCES).toEqual(['api-keys', 'audit', 'links', 'payments', 'webhook-endpoints'])
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
