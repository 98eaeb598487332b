/**
 * The repository paths that comments and documents name, so that a file moved or renamed without
 * its mentions fails a test instead of leaving a newcomer a dead pointer. Only comments count in
 * source files (a string may name a path on purpose that does not exist); Markdown counts whole.
 */
import { existsSync, statSync } from 'node:fs'
import { join } from 'node:path'
import ts from 'typescript'

/** A path named somewhere: where (file and 1-based line) and as written, cleaned. */
export interface NamedPath {
  file: string
  line: number
  path: string
}

/** The folders whose paths are checked when named: the code's, the tests', the docs'. */
const ROOTS = ['src', 'views', 'db', 'test', 'scripts', 'bench', 'docs']

// A root at the start of a path: not inside a longer path (`hono/src/…`), a word or a URL.
const PATH = new RegExp(`(?<![\\w./@$-])(?:${ROOTS.join('|')})/[^\\s'"\`()\\[\\],;|]*`, 'g')

// A note named by its bare file name inside docs/decisions (`see \`pdf-receipt.md\``).
const BARE_NOTE = /(?<![\w./-])[a-z0-9][a-z0-9-]*\.md\b/g

// The product's and the gateway's reference documents: named by the notes, kept outside.
const ELSEWHERE = new Set(['product.md', 'gateway-facts.md', 'gateway-direct-interface.md'])

/** Extensions a path may be written without (`src/lib/money`), and `.js` written for a .ts. */
const EXTENSIONS = ['.ts', '.tsx', '.js', '.mjs', '.md', '.sql', '.json', '.sh']

/**
 * The path a raw match stands for, or null when it is a pattern rather than a path: globs
 * (`src/worker-*.ts`), placeholders (`src/client/<resource>.ts`, `…`), template slots. A `:line`
 * or `#anchor` suffix and the sentence's closing punctuation are dropped; a quoted section after
 * the path (`performance.md, "The Worker upload"`) is never part of the match.
 */
export function cleanPath(raw: string): string | null {
  if (/[*<>{}$…]|\.\.\./.test(raw)) return null
  let path = raw.replace(/#.*$/, '')
  path = path.replace(/[.:!?]+$/, '')
  path = path.replace(/:L?\d+(?:[-:]\d+)*$/, '')
  path = path.replace(/[.:!?]+$/, '')
  return path.includes('/') ? path : null
}

/** Whether `path` exists under `root`: a folder when written with a trailing slash. */
export function pathExists(root: string, path: string): boolean {
  const full = join(root, path)
  if (path.endsWith('/')) return existsSync(full) && statSync(full).isDirectory()
  if (existsSync(full)) return true
  const stem = full.replace(/\.js$/, '')
  return EXTENSIONS.some((ext) => existsSync(`${stem}${ext}`) || existsSync(`${full}${ext}`))
}

/** Comments of a TypeScript or JavaScript file, found by the compiler's own scanner. */
function scriptComments(file: string, text: string): { start: number; text: string }[] {
  const kind = file.endsWith('.tsx')
    ? ts.ScriptKind.TSX
    : /\.m?js$/.test(file)
      ? ts.ScriptKind.JS
      : ts.ScriptKind.TS
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, kind)
  const found = new Map<number, string>()
  const collect = (ranges: ts.CommentRange[] | undefined) => {
    for (const r of ranges ?? []) found.set(r.pos, text.slice(r.pos, r.end))
  }
  const visit = (node: ts.Node) => {
    // Most subtrees hold no comment: skip them rather than scan their tokens.
    const span = text.slice(node.pos, node.end)
    if (!span.includes('//') && !span.includes('/*')) return
    collect(ts.getLeadingCommentRanges(text, node.pos))
    collect(ts.getTrailingCommentRanges(text, node.end))
    for (const child of node.getChildren(source)) visit(child)
  }
  visit(source)
  return [...found].sort(([a], [b]) => a - b).map(([start, comment]) => ({ start, text: comment }))
}

/** Line comments of a shell script (`#`) or SQL file (`--`). */
function lineComments(text: string, marker: RegExp): { start: number; text: string }[] {
  return [...text.matchAll(marker)].map((m) => ({ start: m.index, text: m[0] }))
}

/** The parts of a file that are prose: its comments, or the whole of a Markdown document. */
export function proseOf(file: string, text: string): { start: number; text: string }[] {
  if (/\.(ts|tsx|js|mjs)$/.test(file)) return scriptComments(file, text)
  if (file.endsWith('.sh')) return lineComments(text, /(?<=^|\s)#[^\n]*/g)
  if (file.endsWith('.sql')) return lineComments(text, /--[^\n]*/g)
  if (file.endsWith('.md')) return [{ start: 0, text }]
  return []
}

/** Every repository path named in the prose of `file` (its text given). */
export function namedPaths(file: string, text: string): NamedPath[] {
  const lineAt = (offset: number) => text.slice(0, offset).split('\n').length
  const out: NamedPath[] = []
  const inNotes = file.startsWith('docs/decisions/')
  // Parsing is the cost: a file that names no path anywhere has none in its comments either.
  if (!new RegExp(PATH.source).test(text) && !(inNotes && new RegExp(BARE_NOTE.source).test(text)))
    return out
  for (const part of proseOf(file, text)) {
    for (const m of part.text.matchAll(PATH)) {
      const path = cleanPath(m[0])
      if (path) out.push({ file, line: lineAt(part.start + m.index), path })
    }
    if (!inNotes) continue
    for (const m of part.text.matchAll(BARE_NOTE)) {
      if (ELSEWHERE.has(m[0])) continue
      out.push({ file, line: lineAt(part.start + m.index), path: `docs/decisions/${m[0]}` })
    }
  }
  return out
}
