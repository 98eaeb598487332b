import type { MiddlewareHandler } from 'hono'
import type { AppEnv } from '../app-deps.js'
import { randomBase62 } from '../lib/bytes.js'

/** A new request id (also sent back as `X-Request-Id`). */
export function newRequestId(): string {
  return randomBase62(12)
}

// Under load many requests start in the same millisecond: its ISO form is computed once.
let lastStarted = Number.NaN
let lastTime = ''
const isoTime = (ms: number) => {
  if (ms !== lastStarted) {
    lastStarted = ms
    lastTime = new Date(ms).toISOString()
  }
  return lastTime
}

/** The structured line logged for every request. */
export function requestLogEntry(request: {
  started: number
  finished: number
  requestId: string
  method: string
  route: string
  status: number
}) {
  return {
    time: isoTime(request.started),
    request_id: request.requestId,
    method: request.method,
    route: request.route,
    status: request.status,
    duration_ms: request.finished - request.started,
  }
}

/** One structured line per request: time, request id, method, route, status, duration. */
export function requestLog(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const started = c.get('clock')()
    const requestId = newRequestId()
    c.set('requestId', requestId)
    // Set before the response exists, so it is built with its headers in one go (see below).
    c.header('X-Request-Id', requestId)
    await next()
    c.get('log')(
      requestLogEntry({
        started,
        finished: c.get('clock')(),
        requestId,
        method: c.req.method,
        route: c.req.routePath,
        status: c.res.status,
      }),
    )
  }
}
