/**
 * Mends a race in Miniflare's synchronous binding proxy (how Node reaches a local D1: `prepare`,
 * `bind`; used by `wrangler dev` and by the test suite), fixed upstream in cloudflare/workers-sdk
 * pull request 15552 but not in the Miniflare 4 that wrangler 4.86 installs.
 *
 * The proxy's worker thread posts its reply, sets a flag, then wakes the caller. Preempted between
 * the flag and the wake-up, its late wake-up ends the caller's wait for the NEXT call before that
 * reply exists: `receiveMessageOnPort` finds nothing, `assert(message?.id === id)` throws, and
 * every later call reads the reply of the one before. The mend waits again while no reply is
 * there (the flag, reset before the call, is set only by that call's reply).
 *
 * Run by `npm install` (`postinstall`). Idempotent; a Miniflare without the old code (a newer one,
 * or none: a production install) is left alone.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const FILE = join(ROOT, 'node_modules', 'miniflare', 'dist', 'src', 'index.js')

const RACY = `    const message = (0, import_node_worker_threads.receiveMessageOnPort)(
      this.#channel.port1
    )?.message;
    (0, import_node_assert13.default)(message?.id === id);`

export const MENDED = `    let message = (0, import_node_worker_threads.receiveMessageOnPort)(
      this.#channel.port1
    )?.message;
    // Paylinks (scripts/patch-miniflare.mjs): a late wake-up of the previous call ended the wait.
    while (message === void 0) {
      Atomics.wait(this.#notifyHandle, 0, 0);
      message = (0, import_node_worker_threads.receiveMessageOnPort)(this.#channel.port1)?.message;
    }
    (0, import_node_assert13.default)(message?.id === id);`

/** `mended`, `already`, or why it was left alone. */
export function patchMiniflare(file = FILE) {
  if (!existsSync(file)) return 'absent'
  const source = readFileSync(file, 'utf8')
  if (source.includes(MENDED)) return 'already'
  const at = source.indexOf(RACY)
  if (at === -1 || source.indexOf(RACY, at + 1) !== -1) return 'unknown'
  writeFileSync(file, source.replace(RACY, MENDED))
  return 'mended'
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const outcome = patchMiniflare()
  if (outcome === 'mended') console.log("Mended Miniflare's synchronous proxy race")
}
