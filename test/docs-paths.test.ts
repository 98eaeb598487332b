/**
 * Every path a comment or a document names exists, and every decision note says when it was
 * taken and whether it still holds: a file moved without its mentions fails here, with the file
 * and line that still name the old place.
 */
import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { cleanPath, namedPaths, pathExists } from './support/named-paths.js'

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..')

/** The tracked files whose comments or text are read: the code, the tests, the docs. */
function proseFiles(): string[] {
  return execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], {
    cwd: ROOT,
    encoding: 'utf8',
  })
    .split('\n')
    .filter(
      (f) =>
        /^(src|views|db|test|scripts|bench)\/.*\.(ts|tsx|js|mjs|sh|sql)$/.test(f) ||
        f === 'README.md' ||
        /^docs\/.*\.md$/.test(f),
    )
}

const NOTES = () => proseFiles().filter((f) => /^docs\/decisions\/[^/]+\.md$/.test(f))
const TEMPLATE = 'docs/decisions/000-template.md'
const DATE_STATUS = /^Date: (\d{4}-\d{2}-\d{2}) · Status: (proposed|accepted|superseded)\b/

describe('paths named in comments and documents', () => {
  it('are read as written: suffixes dropped, patterns skipped, a folder kept as a folder', () => {
    expect(cleanPath('src/lib/money.ts:42')).toBe('src/lib/money.ts')
    expect(cleanPath('src/app/index.ts:12:3.')).toBe('src/app/index.ts')
    expect(cleanPath('docs/decisions/mail.md#outbox')).toBe('docs/decisions/mail.md')
    expect(cleanPath('src/runtime/node/')).toBe('src/runtime/node/')
    expect(cleanPath('src/worker-*.ts')).toBeNull()
    expect(cleanPath('src/client/<resource>.ts')).toBeNull()
    expect(cleanPath('src/client/…')).toBeNull()
    expect(pathExists(ROOT, 'src/lib/money')).toBe(true)
    expect(pathExists(ROOT, 'src/lib/money.js')).toBe(true)
    expect(pathExists(ROOT, 'src/runtime/node/')).toBe(true)
    expect(pathExists(ROOT, 'src/lib/money.ts/')).toBe(false)
    expect(pathExists(ROOT, 'src/lib/no-such-module.ts')).toBe(false)
  })

  it('are found in comments only, with their line, and a quoted section is not part of one', () => {
    const code = [
      "import { x } from '../src/not-a-comment.js'",
      '// See src/lib/money.ts and docs/decisions/performance.md, "The Worker upload".',
      "const s = 'src/in-a-string.ts' // src/runtime/node/",
      '/* views/layout.tsx */',
    ].join('\n')
    expect(namedPaths('src/x.ts', code)).toEqual([
      { file: 'src/x.ts', line: 2, path: 'src/lib/money.ts' },
      { file: 'src/x.ts', line: 2, path: 'docs/decisions/performance.md' },
      { file: 'src/x.ts', line: 3, path: 'src/runtime/node/' },
      { file: 'src/x.ts', line: 4, path: 'views/layout.tsx' },
    ])
    const note = 'Since then see `pdf-receipt.md`, not hono/src/adapter/ nor https://x.dev/src/a.'
    expect(namedPaths('docs/decisions/x.md', note)).toEqual([
      { file: 'docs/decisions/x.md', line: 1, path: 'docs/decisions/pdf-receipt.md' },
    ])
  })

  it('exist in the repository', () => {
    const missing: string[] = []
    for (const file of proseFiles()) {
      const text = readFileSync(join(ROOT, file), 'utf8')
      for (const named of namedPaths(file, text)) {
        if (!pathExists(ROOT, named.path))
          missing.push(`${named.file}:${named.line}: ${named.path}`)
      }
    }
    expect(missing).toEqual([])
  })
})

describe('decision notes', () => {
  it('each say under their title when they were taken and whether they hold', () => {
    const undated: string[] = []
    for (const note of NOTES()) {
      if (note === TEMPLATE) continue
      const lines = readFileSync(join(ROOT, note), 'utf8').split('\n')
      const first = lines.findIndex((l, i) => i > 0 && l.trim() !== '')
      if (!lines[0]?.startsWith('# ') || !DATE_STATUS.test(lines[first] ?? '')) undated.push(note)
    }
    expect(undated).toEqual([])
  })

  it('have a template that shows the date and status line and the three parts', () => {
    const template = readFileSync(join(ROOT, TEMPLATE), 'utf8')
    expect(template).toMatch(/^Date: YYYY-MM-DD · Status: proposed/m)
    for (const part of ['## Context', '## Decision', '## Consequences'])
      expect(template).toContain(part)
  })
})
