/**
 * A request's declared body length as Node's HTTP parser already read it: @hono/node-server
 * passes the `IncomingMessage` in the bindings, whose `headers` it has parsed for the request's
 * URL. Reading the length there spares the webhook's path the Fetch `Headers` of the request.
 */
import type { IncomingHttpHeaders } from 'node:http'
import { type DeclaredBodyLength, framedLength } from '../../lib/bounded-body.js'

/** The declared length from `env.incoming` (undefined without it: the headers then tell). */
export const nodeDeclaredBodyLength: DeclaredBodyLength = (env) => {
  const headers = (env as { incoming?: { headers?: IncomingHttpHeaders } } | undefined)?.incoming
    ?.headers
  if (!headers) return undefined
  return framedLength(headers['transfer-encoding'] !== undefined, headers['content-length'])
}
