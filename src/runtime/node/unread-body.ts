/**
 * What Node does after Paylinks refuses a body part-way (413, see src/http/body-limits.ts).
 * The body was being read through a Web stream, whose Node adapter pauses the request each time
 * its queue is full; once nobody reads that stream any more, the request stays paused, and
 * @hono/node-server's clean-up (which drops what is still in flight, up to 64 MB or 500 ms, so the
 * connection can serve the next request) waits for nothing and then cuts the connection. Dropping
 * the adapter's listener lets that clean-up run: what arrives is discarded as it comes, never kept.
 */
import type { IncomingMessage } from 'node:http'
import type { Http2ServerRequest } from 'node:http2'
import type { Http2Bindings, HttpBindings } from '@hono/node-server'

type Bindings = HttpBindings | Http2Bindings
type Fetch = (request: Request, env: Bindings) => Response | Promise<Response>

/** Lets the rest of a refused body flow to nowhere, so the server's clean-up can drain it. */
export function letUnreadBodyFlow(incoming: IncomingMessage | Http2ServerRequest): void {
  if (incoming.complete || incoming.destroyed) return

  incoming.removeAllListeners('data')
  incoming.on('data', () => {})
  incoming.resume()
}

/** `fetch` with the rest of a body dropped after every 413; answers stay synchronous when they are. */
export function dropUnreadBodies(fetch: Fetch): Fetch {
  const after = (response: Response, env: Bindings) => {
    if (response.status === 413 && env?.incoming) letUnreadBodyFlow(env.incoming)
    return response
  }
  return (request, env) => {
    const result = fetch(request, env)
    return result instanceof Promise
      ? result.then((response) => after(response, env))
      : after(result, env)
  }
}
