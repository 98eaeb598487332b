/** Applies the configured endpoint fault (if any) around one route. */
import type { MiddlewareHandler } from 'hono'
import type { SimContext } from '../context.js'

/** A middleware that injects the fault set for `key`: latency, hang, a 5xx or malformed JSON. */
export function withFault(ctx: SimContext, key: string): MiddlewareHandler {
  return async (c, next) => {
    const fault = ctx.faults.takeEndpoint(key)
    if (!fault) return next()
    const signal = c.req.raw.signal
    try {
      if (fault.latencyMs) await ctx.sleep(fault.latencyMs, signal)
      if (fault.hang) {
        // Answer only when the client gives up (its abort closes the connection) or after a cap,
        // so a test that forgets to abort still ends.
        await ctx.sleep(ctx.config.hangCapMs, signal)
        return c.json({ status: 'error', message: 'Simulated hang: gave up waiting' }, 504)
      }
    } catch {
      // The client went away: nobody reads this answer.
      return new Response(null, { status: 499 })
    }
    if (fault.status5xx) {
      const message =
        key === 'get_products'
          ? 'Error fetching products: simulated upstream failure'
          : `Simulated server error (HTTP ${fault.status5xx})`
      return c.json({ status: 'error', message }, fault.status5xx as 500)
    }
    await next()
    if (fault.malformedJson) {
      const text = await c.res.text()
      // Cut the body in half: what a proxy that drops a connection mid-answer leaves behind.
      const broken = text.length > 1 ? text.slice(0, Math.ceil(text.length / 2)) : '{"status":'
      const headers = new Headers(c.res.headers)
      headers.set('content-type', 'application/json')
      headers.delete('content-length')
      c.res = new Response(broken, { status: c.res.status, headers })
    }
  }
}
