/**
 * The Worker's stand-ins for two parts of hono that Paylinks never runs (wrangler.toml's [alias]
 * points hono's own imports of them here); each refuses loudly if it ever is.
 *
 * - Its second router. hono's SmartRouter tries its routers in order on the first match and keeps
 *   the first that takes every route: RegExpRouter, which takes all of Paylinks' routes, so the
 *   TrieRouter behind it never routes a request, on Node either. Should a route ever need it (a
 *   pattern RegExpRouter refuses), this one refuses too, and the Worker fails at its first
 *   request, which every Worker test makes.
 * - `app.mount()`, for other frameworks' handlers (deprecated by hono; Paylinks mounts none).
 */
export class TrieRouter {
  name = 'TrieRouter'

  add() {
    throw new Error(
      "A route needs hono's TrieRouter, which the Worker leaves out (src/worker-hono-unused.js)",
    )
  }

  match() {
    return this.add()
  }
}

export function createMountedRequest() {
  throw new Error("hono's app.mount() is not part of the Worker (src/worker-hono-unused.js)")
}
