/**
 * The Node runtime keeps Hono's JSX renderer from turning async hooks on for the whole process
 * (src/runtime/node/jsx-without-async-hooks.ts), and pages still render. In a process of its own, since a
 * render elsewhere in the test process would decide it first. The probe runs bundled (once per
 * run, test/support/thread-bundle.ts) rather than under tsx, which compiled Paylinks' sources
 * afresh in each of the two processes; the bundle keeps the probe's order of evaluation (the
 * harness is imported after the control's render).
 */
import { execFile } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'
import { bundledForThreads } from '../support/thread-bundle.js'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const PROBE = new URL('./fixtures/async-hooks-probe.ts', import.meta.url)

async function probe(...args: string[]) {
  const bundle = await bundledForThreads(PROBE, 'async-hooks-probe')
  const { stdout } = await promisify(execFile)(process.execPath, [fileURLToPath(bundle), ...args], {
    cwd: ROOT,
    env: { ...process.env, NODE_OPTIONS: '' },
  })
  return JSON.parse(stdout.trim().split('\n').at(-1)!) as {
    pages: { path: string; status: number; html: boolean }[]
    executionAsyncId: number
  }
}

describe("Hono's JSX renderer on Node", () => {
  it('renders the pages without turning async hooks on', async () => {
    const result = await probe()
    for (const page of result.pages)
      expect(page, page.path).toMatchObject({ status: 200, html: true })
    expect(result.executionAsyncId).toBe(0)
  }, 30_000)

  it('would turn them on had it rendered before the runtime was set up (the check can fail)', async () => {
    const result = await probe('control')
    for (const page of result.pages)
      expect(page, page.path).toMatchObject({ status: 200, html: true })
    expect(result.executionAsyncId).not.toBe(0)
  }, 30_000)
})
