/** Shapes of successful answers: objects are required where an endpoint promises one. */
import { GatewayResponseError } from './errors.js'
import { isObject, type JsonObject } from './parse.js'
import type { TransportResponse } from './transport.js'

/**
 * The answer's JSON object (an empty body counts as `{}`); any other JSON is a
 * GatewayResponseError, because the endpoint promises an object.
 */
export function objectBody(res: TransportResponse, endpoint: string): JsonObject {
  if (res.data === null) return {}
  if (isObject(res.data)) return res.data
  throw new GatewayResponseError(
    `The gateway answered ${res.request.method} ${res.request.url} (${endpoint}) with JSON that is not an object. Check that the client points at the gateway.`,
    { status: res.status, body: res.scrub(res.data), request: res.request },
  )
}
