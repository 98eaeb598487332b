/**
 * The import graph of the source tree, read from the files themselves: every static `import`,
 * `export … from`, `import type` and `import()` with a literal (the TypeScript scanner, so
 * imports in comments and strings do not count). Nodes are paths relative to the repository.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve, sep } from 'node:path'
import ts from 'typescript'

/** File → the repository files it imports (relative specifiers only; packages are left out). */
export type ImportGraph = Map<string, string[]>

export interface ReadGraph {
  graph: ImportGraph
  /** Relative specifiers that name no file (`file: specifier`); a parse gone wrong shows here. */
  unresolved: string[]
}

const SOURCE = /\.tsx?$/

function sourceFiles(root: string, dir: string): string[] {
  const out: string[] = []
  for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) out.push(...sourceFiles(root, path))
    else if (SOURCE.test(entry.name) && !entry.name.endsWith('.d.ts')) out.push(path)
  }
  return out
}

/** The file a relative specifier names: `./x.js` is `x.ts` or `x.tsx`, a folder its index. */
function resolveSpecifier(root: string, from: string, specifier: string): string | null {
  const base = resolve(root, dirname(from), specifier)
  const stem = base.replace(/\.(js|jsx|ts|tsx)$/, '')
  const candidates = [base, `${stem}.ts`, `${stem}.tsx`, join(base, 'index.ts')]
  const found = candidates.find((c) => SOURCE.test(c) && existsSync(c))
  return found ? relative(root, found).split(sep).join('/') : null
}

/** Reads the imports of every .ts/.tsx file under `dirs` (relative to `root`). */
export function readImportGraph(root: string, dirs: readonly string[]): ReadGraph {
  const graph: ImportGraph = new Map()
  const unresolved: string[] = []
  for (const file of dirs.flatMap((dir) => sourceFiles(root, dir))) {
    const name = file.split(sep).join('/')
    const text = readFileSync(join(root, file), 'utf8')
    const imported = ts.preProcessFile(text, true, true).importedFiles.map((f) => f.fileName)
    const targets = new Set<string>()
    for (const specifier of imported) {
      if (!specifier.startsWith('.')) continue
      const target = resolveSpecifier(root, name, specifier)
      if (target) targets.add(target)
      else unresolved.push(`${name}: ${specifier}`)
    }
    graph.set(name, [...targets].sort())
  }
  return { graph, unresolved }
}

/**
 * Every import cycle, one per tangle of files that import each other (a strongly connected
 * component), written `a -> b -> … -> a`, shortest found by breadth-first search.
 */
export function findCycles(graph: ImportGraph): string[] {
  const cycles: string[] = []
  for (const component of stronglyConnected(graph)) {
    const members = new Set(component)
    const start = [...component].sort()[0]!
    if (component.length === 1 && !(graph.get(start) ?? []).includes(start)) continue
    cycles.push(shortestLoop(graph, start, members).join(' -> '))
  }
  return cycles.sort()
}

function shortestLoop(graph: ImportGraph, start: string, within: Set<string>): string[] {
  const cameFrom = new Map<string, string>()
  const queue = [start]
  while (queue.length > 0) {
    const node = queue.shift()!
    for (const next of graph.get(node) ?? []) {
      if (!within.has(next)) continue
      if (next === start) {
        const path = [start]
        for (let at = node; at !== start; at = cameFrom.get(at)!) path.splice(1, 0, at)
        return [...path, start]
      }
      if (!cameFrom.has(next)) {
        cameFrom.set(next, node)
        queue.push(next)
      }
    }
  }
  return [start, start]
}

/** Tarjan's algorithm, iterative so a deep chain of imports cannot overflow the stack. */
function stronglyConnected(graph: ImportGraph): string[][] {
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const onStack = new Set<string>()
  const stack: string[] = []
  const components: string[][] = []
  let counter = 0
  for (const root of graph.keys()) {
    if (index.has(root)) continue
    const work: { node: string; next: number }[] = [{ node: root, next: 0 }]
    index.set(root, counter)
    low.set(root, counter++)
    stack.push(root)
    onStack.add(root)
    while (work.length > 0) {
      const frame = work.at(-1)!
      const edges = graph.get(frame.node) ?? []
      if (frame.next < edges.length) {
        const next = edges[frame.next++]!
        if (!index.has(next)) {
          index.set(next, counter)
          low.set(next, counter++)
          stack.push(next)
          onStack.add(next)
          work.push({ node: next, next: 0 })
        } else if (onStack.has(next)) {
          low.set(frame.node, Math.min(low.get(frame.node)!, index.get(next)!))
        }
        continue
      }
      work.pop()
      const parent = work.at(-1)
      if (parent) low.set(parent.node, Math.min(low.get(parent.node)!, low.get(frame.node)!))
      if (low.get(frame.node) === index.get(frame.node)) {
        const component: string[] = []
        let member: string
        do {
          member = stack.pop()!
          onStack.delete(member)
          component.push(member)
        } while (member !== frame.node)
        components.push(component)
      }
    }
  }
  return components
}
