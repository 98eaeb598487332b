/**
 * `npm start` runs `scripts/build.mjs --if-stale` first: on a fresh clone it builds, then it
 * rebuilds only when a source changed, so an edited checkout never runs old code and an unchanged
 * one starts without waiting for esbuild.
 */
import { spawnSync } from 'node:child_process'
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
let copy = ''

/** Runs `node scripts/build.mjs --if-stale` in the copy; returns what it reported. */
function buildIfStale(): string {
  const run = spawnSync(process.execPath, ['scripts/build.mjs', '--if-stale'], {
    cwd: copy,
    encoding: 'utf8',
  })
  expect(run.status, run.stderr).toBe(0)
  return run.stderr
}

beforeAll(() => {
  copy = mkdtempSync(join(tmpdir(), 'paylinks-stale-'))
  for (const path of ['src', 'views', 'db', 'scripts', 'package.json', 'package-lock.json'])
    cpSync(join(ROOT, path), join(copy, path), { recursive: true })
  symlinkSync(join(ROOT, 'node_modules'), join(copy, 'node_modules'))
})

afterAll(() => {
  if (copy) rmSync(copy, { recursive: true, force: true })
})

describe('npm start’s build step', () => {
  it('builds a fresh checkout, keeps the build while nothing changed, and rebuilds after an edit', () => {
    expect(existsSync(join(copy, 'dist'))).toBe(false)
    expect(buildIfStale()).toContain('Built dist/server/main.js')
    expect(existsSync(join(copy, 'dist/server/main.js'))).toBe(true)

    expect(buildIfStale()).toBe('')

    // An edit to a view (Hono JSX) after the build (the build dated back, not the edit forward).
    const view = join(copy, 'views/message-page.tsx')
    writeFileSync(view, `${readFileSync(view, 'utf8')}\n// edited\n`)
    const before = new Date(Date.now() - 60_000)
    utimesSync(join(copy, 'dist/build.json'), before, before)
    expect(buildIfStale()).toContain('Built dist/server/main.js')
    expect(buildIfStale()).toBe('')
  })

  it('rebuilds the server without removing the merchant SDK beside it (dist/merchant, built by prepare)', () => {
    mkdirSync(join(copy, 'dist/merchant'), { recursive: true })
    writeFileSync(join(copy, 'dist/merchant/index.js'), 'export const built = true\n')
    const before = new Date(Date.now() - 60_000)
    utimesSync(join(copy, 'dist/build.json'), before, before)
    utimesSync(join(copy, 'package.json'), new Date(), new Date())
    expect(buildIfStale()).toContain('Built dist/server/main.js')
    expect(existsSync(join(copy, 'dist/merchant/index.js'))).toBe(true)
    expect(existsSync(join(copy, 'dist/server/main.js'))).toBe(true)
  })
})
