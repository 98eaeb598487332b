/**
 * The Worker's stand-in for hono's second router (wrangler.toml's [alias] points hono's own import
 * of `trie-router/router.js` here). hono's SmartRouter tries its routers in order on the first
 * match and keeps the first that takes every route: RegExpRouter, which takes all of Paylinks'
 * routes, so the TrieRouter behind it never routes a request, on Node either. Should a route
 * ever need it (a pattern RegExpRouter refuses), this stand-in refuses too, and the Worker fails
 * at its first request, which every Worker test makes.
 */
export class TrieRouter {
  name = 'TrieRouter'

  add() {
    throw new Error(
      "A route needs hono's TrieRouter, which the Worker leaves out (src/worker-hono-one-router.js)",
    )
  }

  match() {
    return this.add()
  }
}
