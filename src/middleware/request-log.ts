import type { MiddlewareHandler } from 'hono'
import { randomBase62 } from '../client/core/bytes.js'
import type { AppEnv } from '../env.js'

/** One structured line per request: time, request id, method, route, status, duration. */
export function requestLog(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const started = c.get('clock')()
    const requestId = randomBase62(12)
    c.set('requestId', requestId)
    // Set before the response exists, so it is built with its headers in one go (see below).
    c.header('X-Request-Id', requestId)
    await next()
    c.get('log')({
      time: new Date(started).toISOString(),
      request_id: requestId,
      method: c.req.method,
      route: c.req.routePath,
      status: c.res.status,
      duration_ms: c.get('clock')() - started,
    })
  }
}
