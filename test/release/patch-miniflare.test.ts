/**
 * `npm install` mends the race of Miniflare's synchronous D1 proxy (scripts/patch-miniflare.mjs):
 * the installed copy holds the mend, and the mend applies once to the code it was written for and
 * leaves any other alone.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
// @ts-expect-error: a plain JavaScript script, without declarations
import { MENDED, patchMiniflare } from '../../scripts/patch-miniflare.mjs'

const dir = mkdtempSync(join(tmpdir(), 'paylinks-miniflare-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const RACY = `  fetch(url, init) {
    const message = (0, import_node_worker_threads.receiveMessageOnPort)(
      this.#channel.port1
    )?.message;
    (0, import_node_assert13.default)(message?.id === id);
  }`

describe("Miniflare's synchronous proxy", () => {
  it('is mended in the installed copy (npm install runs the mend)', () => {
    expect(patchMiniflare()).toBe('already')
    const installed = readFileSync(
      join('node_modules', 'miniflare', 'dist', 'src', 'index.js'),
      'utf8',
    )
    expect(installed).toContain(MENDED)
  })

  it('mends the racy code once, and leaves other code and a missing file alone', () => {
    const file = join(dir, 'index.js')
    writeFileSync(file, RACY)
    expect(patchMiniflare(file)).toBe('mended')
    const mended = readFileSync(file, 'utf8')
    expect(mended).toContain('while (message === void 0)')
    expect(patchMiniflare(file)).toBe('already')
    expect(readFileSync(file, 'utf8')).toBe(mended)

    writeFileSync(file, 'export const other = 1\n')
    expect(patchMiniflare(file)).toBe('unknown')
    expect(readFileSync(file, 'utf8')).toBe('export const other = 1\n')
    expect(patchMiniflare(join(dir, 'none.js'))).toBe('absent')
  })
})
