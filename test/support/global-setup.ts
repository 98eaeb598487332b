/**
 * Vitest's global setup: a cache directory for each run, where the test files share the builds
 * and the migrated D1 template (test/support/run-cache.ts). Nothing is built here: a run without
 * the tests that need them pays nothing.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { TestProject } from 'vitest/node'

export default function setup(project: TestProject): () => void {
  const fresh = () => mkdtempSync(join(tmpdir(), 'paylinks-worker-run-'))
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
