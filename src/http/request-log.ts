/**
 * Where every request is logged: its id (sent back as `X-Request-Id`), its one structured line
 * (time, id, method, route, status, duration), and the response headers it goes out with. The
 * middleware uses it for routed requests; the two paths answered outside the middleware (the
 * prepared checkout page, the gateway's webhooks) use `sendLogged`, so their lines and headers are
 * the same. Why those paths skip the middleware: docs/decisions/performance.md, "Answered before
 * routing" and "Ahead of the middleware, short replies".
 */
import type { MiddlewareHandler } from 'hono'
import type { AppEnv } from '../deps.js'
import { randomBase62 } from '../lib/bytes.js'
import type { Logger } from '../log.js'

/** The header that carries a request's id back to the client. */
export const REQUEST_ID_HEADER = 'X-Request-Id'

/** What logging a request needs: the clock and the log. */
export interface RequestLogDeps {
  clock: () => number
  log: Logger
}

/** A request as its log line describes it, without its outcome. */
export interface LoggedRequest {
  started: number
  requestId: string
  method: string
  route: string
}

/** A new request id (also sent back as `X-Request-Id`). */
export function newRequestId(): string {
  return randomBase62(12)
}

// The ISO time once per millisecond (docs/decisions/performance.md, "The per-request work").
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
export function requestLogEntry(request: LoggedRequest & { finished: number; status: number }) {
  return {
    time: isoTime(request.started),
    request_id: request.requestId,
    method: request.method,
    route: request.route,
    status: request.status,
    duration_ms: request.finished - request.started,
  }
}

/** Writes the line of `request`, finished now with `status`. */
export function logRequest(deps: RequestLogDeps, request: LoggedRequest, status: number): void {
  deps.log(
    requestLogEntry({
      started: request.started,
      finished: deps.clock(),
      requestId: request.requestId,
      method: request.method,
      route: request.route,
      status,
    }),
  )
}

/**
 * A response made outside the middleware, with the request id and `headers` (a plain record
 * built once), after its line is logged.
 */
export function sendLogged(
  deps: RequestLogDeps,
  request: LoggedRequest,
  status: number,
  body: BodyInit | null,
  headers: Readonly<Record<string, string>>,
): Response {
  logRequest(deps, request, status)
  // The id first (docs/decisions/performance.md, "The per-request work").
  return new Response(body, {
    status,
    headers: { [REQUEST_ID_HEADER]: request.requestId, ...headers },
  })
}

/** The middleware: an id for every routed request, and its line once answered. */
export function requestLog(deps: RequestLogDeps): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const started = deps.clock()
    const requestId = newRequestId()
    c.set('requestId', requestId)
    // Before the response exists (docs/decisions/performance.md, "Headers before the response").
    c.header(REQUEST_ID_HEADER, requestId)
    await next()
    logRequest(
      deps,
      { started, requestId, method: c.req.method, route: c.req.routePath },
      c.res.status,
    )
  }
}
