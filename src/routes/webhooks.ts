/**
 * `POST /webhooks/gateway`: the gateway's signed `cib.payment.updated` deliveries. Registered
 * ahead of the middleware (it needs no session, page or nonce), it answers and logs through
 * `sendLogged` (docs/decisions/performance.md, "Ahead of the middleware, short replies").
 */
import type { MiddlewareHandler } from 'hono'
import type { AppDeps, AppEnv } from '../app-deps.js'
import { WEBHOOK_BODY_LIMIT } from '../http/body-limits.js'
import { newRequestId, sendLogged } from '../http/request-log.js'
import { machineReplyHeaders, type SecurityPolicy } from '../http/security-headers.js'
import { readBoundedText } from '../lib/bounded-body.js'
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
    const request = {
      started: deps.clock(),
      requestId: newRequestId(),
      method: 'POST',
      route: '/webhooks/gateway',
    }
    // Read with its cap whether or not the sender declared a length (a chunked body has none).
    const raw = await readBoundedText(c.req.raw, WEBHOOK_BODY_LIMIT)
    const answer =
      raw === null ? { status: 413, body: TOO_LARGE } : await receiveWebhook(deps, background, raw)
    return sendLogged(deps, request, answer.status, JSON.stringify(answer.body), replyHeaders)
  }
}
