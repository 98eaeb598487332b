/**
 * The Worker's `Hono` class: hono's own, whose default router is SmartRouter over the trie router
 * alone, without RegExpRouter. The app's router is the trie router already (src/app.ts: hono's
 * RegExpRouter refuses its routes), and the route groups built with `new Hono()` are only ever
 * mounted with `app.route()`, which copies their routes into the app's router; so RegExpRouter,
 * whose code was in the upload for the groups' default, never matched a request. wrangler.toml's
 * [alias] points hono's own import of its class here.
 */
import { HonoBase } from 'hono/hono-base'
import { SmartRouter } from 'hono/router/smart-router'
import { TrieRouter } from 'hono/router/trie-router'

export class Hono extends HonoBase {
  constructor(options = {}) {
    super(options)
    this.router = options.router ?? new SmartRouter({ routers: [new TrieRouter()] })
  }
}
