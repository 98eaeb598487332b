/**
 * `POST /webhooks/gateway`: the gateway's signed `cib.payment.updated` deliveries. Answered before
 * routing (it needs no session, page or nonce), it answers and logs through `sendLogged`
 * (docs/decisions/performance.md, "Ahead of the middleware, short replies").
 */
import type { AppDeps } from '../deps.js'
import { WEBHOOK_BODY_LIMIT } from '../http/body-limits.js'
import { newRequestId, sendLogged } from '../http/request-log.js'
import { machineReplyHeaders, type SecurityPolicy } from '../http/security-headers.js'
import { readBoundedText } from '../lib/bounded-body.js'
import { describe } from '../lib/describe-error.js'
import { receiveWebhook, type WebhookDeps } from '../payments/webhook.js'

const INTERNAL = {
  error: { code: 'internal', message: 'Something went wrong; it has been logged.' },
}
const TOO_LARGE = {
  error: { code: 'too_large', message: `The body is larger than ${WEBHOOK_BODY_LIMIT} bytes.` },
}

/** The endpoint's path. */
export const WEBHOOK_PATH = '/webhooks/gateway'

/**
 * True for a `POST` to exactly `WEBHOOK_PATH` (no query): what `webhookEndpoint` takes before
 * routing. Anything else, a spelling of the path the router would decode included, is routed.
 */
export function isWebhookRequest(request: Request): boolean {
  if (request.method !== 'POST') return false
  const url = request.url
  const path = url.indexOf('/', url.indexOf('//') + 2)
  return path > 0 && url.length - path === WEBHOOK_PATH.length && url.endsWith(WEBHOOK_PATH)
}

/** The webhook endpoint for `deps`; its replies carry the headers of a reply to a server. */
export function webhookEndpoint(
  deps: WebhookDeps & Pick<AppDeps, 'declaredBodyLength' | 'background'>,
  security: SecurityPolicy,
): (request: Request, env?: unknown) => Promise<Response> {
  const replyHeaders = machineReplyHeaders(security.https)
  const declared = deps.declaredBodyLength
  return async (incoming, env) => {
    // Taken before anything is awaited: on Workers each request binds its own tracker to its own
    // `ctx.waitUntil` (src/runtime/worker/handler.ts), and another request may replace it a moment later.
    const background = deps.background
    const request = {
      started: deps.clock(),
      requestId: newRequestId(),
      method: 'POST',
      route: WEBHOOK_PATH,
    }
    let answer: { status: number; body: object }
    try {
      // Read with its cap whether or not the sender declared a length (a chunked body has none);
      // the length as the server parsed it when the runtime has it (Node), else from the headers.
      const raw = await readBoundedText(incoming, WEBHOOK_BODY_LIMIT, declared?.(env))
      answer =
        raw === null
          ? { status: 413, body: TOO_LARGE }
          : await receiveWebhook(deps, background, raw)
    } catch (error) {
      // Answered here, as the app's error handler would, since it runs outside the router: a 500,
      // so the gateway delivers the event again.
      deps.log({
        level: 'error',
        event: 'unhandled',
        request_id: request.requestId,
        route: WEBHOOK_PATH,
        error: describe(error),
      })
      answer = { status: 500, body: INTERNAL }
    }
    return sendLogged(deps, request, answer.status, answerText(answer.body), replyHeaders)
  }
}

/** Each answer body's JSON, made once per body: the usual answers are the same few objects. */
const ANSWER_TEXTS = new WeakMap<object, string>()

function answerText(body: object): string {
  let text = ANSWER_TEXTS.get(body)
  if (text === undefined) {
    text = JSON.stringify(body)
    ANSWER_TEXTS.set(body, text)
  }
  return text
}
