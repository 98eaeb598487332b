/**
 * Vitest's global setup: a cache directory for each run, where the test files share the builds
 * and the migrated D1 template (test/support/run-cache.ts). Nothing is built here: a run without
 * the tests that need them pays nothing. It sits inside the checkout (node_modules/.cache), so
 * code bundled into it finds the checkout's db/migrations as the sources do.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { TestProject } from 'vitest/node'

const CACHE = fileURLToPath(new URL('../../node_modules/.cache/paylinks-tests', import.meta.url))

export default function setup(project: TestProject): () => void {
  mkdirSync(CACHE, { recursive: true })
  const fresh = () => mkdtempSync(join(CACHE, 'run-'))
  let dir = fresh()
  project.provide('runCache', dir)
  // In watch mode every rerun builds from the sources as they are then.
  project.onTestsRerun(() => {
    rmSync(dir, { recursive: true, force: true })
    dir = fresh()
    project.provide('runCache', dir)
  })
  return () => rmSync(dir, { recursive: true, force: true })
}
