/**
 * The Worker's stand-in for hono's `app.mount()`, which mounts other frameworks' handlers
 * (deprecated by hono; Paylinks mounts none). wrangler.toml's [alias] points hono's own import of
 * its helper here, which throws if it is ever called.
 */
export function createMountedRequest() {
  throw new Error("hono's app.mount() is not part of the Worker (src/worker-hono-unused.js)")
}
