/**
 * `POST /webhooks/gateway`: the gateway's signed `cib.payment.updated` deliveries. Registered
 * ahead of the middleware (it needs no session, page or nonce): it answers with its headers in
 * one plain object and writes its own log line, so a storm of deliveries costs as little as it can.
 */
import type { MiddlewareHandler } from 'hono'
import type { AppDeps, AppEnv } from '../app-deps.js'
import { readBoundedText } from '../lib/bounded-body.js'
import { WEBHOOK_BODY_LIMIT } from '../middleware/body-limits.js'
import { newRequestId, requestLogEntry } from '../middleware/request-log.js'
import { machineReplyHeaders, type SecurityPolicy } from '../middleware/security-headers.js'
import { receiveWebhook } from '../payments/webhook.js'

const TOO_LARGE = {
  error: { code: 'too_large', message: `The body is larger than ${WEBHOOK_BODY_LIMIT} bytes.` },
}

/** The webhook endpoint for `deps`; its replies carry the headers of a reply to a server. */
export function webhookEndpoint(
  deps: AppDeps,
  security: SecurityPolicy,
): MiddlewareHandler<AppEnv> {
  const replyHeaders = machineReplyHeaders(security.https)
  return async (c) => {
    // Taken before anything is awaited: on Workers each request binds its own tracker to its own
    // `ctx.waitUntil` (src/worker-handler.ts), and another request may replace it a moment later.
    const background = deps.background
    const started = deps.clock()
    const requestId = newRequestId()
    let status: number
    let body: unknown
    // Read with its cap whether or not the sender declared a length (a chunked body has none).
    const raw = await readBoundedText(c.req.raw, WEBHOOK_BODY_LIMIT)
    if (raw === null) {
      status = 413
      body = TOO_LARGE
    } else {
      const answer = await receiveWebhook(deps, background, raw)
      status = answer.status
      body = answer.body
    }
    deps.log(
      requestLogEntry({
        started,
        finished: deps.clock(),
        requestId,
        method: 'POST',
        route: '/webhooks/gateway',
        status,
      }),
    )
    return new Response(JSON.stringify(body), {
      status,
      headers: { 'X-Request-Id': requestId, ...replyHeaders },
    })
  }
}
