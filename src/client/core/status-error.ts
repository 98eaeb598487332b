/** Maps an error status of the gateway to the client's error classes, with a message saying what to do. */

import { scrubValue } from '../../lib/redact.js'
import {
  type ApiErrorDetails,
  GatewayApiError,
  GatewayAuthenticationError,
  GatewayBadRequestError,
  GatewayNotFoundError,
  GatewayRateLimitError,
  GatewayServerError,
  type RequestInfo,
} from './errors.js'
import { readErrorCode, readErrorMessage } from './parse.js'
import { retryAfterMs } from './retry.js'

/** An answer as read off the wire. */
export interface RawAnswer {
  status: number
  headers: Headers
  text: string
}

/** The error for a non-2xx answer; its body is parsed when JSON and scrubbed of credentials. */
export function statusError(
  answer: RawAnswer,
  info: RequestInfo,
  settings: { now: () => number; secrets: readonly string[] },
): GatewayApiError {
  let body: unknown = answer.text
  try {
    body = answer.text.trim() === '' ? null : JSON.parse(answer.text)
  } catch {
    body = answer.text.slice(0, 2000)
  }
  body = scrubValue(body, settings.secrets)
  const said = readErrorMessage(body)
  const what = `The gateway answered ${answer.status} to ${info.method} ${info.url}${said ? `: ${said}` : ''}.`
  const details: ApiErrorDetails = {
    status: answer.status,
    body,
    code: readErrorCode(body),
    request: info,
  }
  const { status } = answer
  if (status === 400)
    return new GatewayBadRequestError(`${what} Check the request's fields and values.`, details)
  if (status === 401 || status === 403)
    return new GatewayAuthenticationError(
      `${what} Check the API key or secret key this client was created with.`,
      details,
    )
  if (status === 404)
    return new GatewayNotFoundError(
      `${what} Check the identifier, and that siteUrl/apiUrl point at the gateway.`,
      details,
    )
  if (status === 429) {
    details.retryAfterMs = retryAfterMs(answer.headers.get('retry-after'), settings.now())
    return new GatewayRateLimitError(`${what} Slow down and try again later.`, details)
  }
  if (status >= 500)
    return new GatewayServerError(
      `${what} The gateway failed; try again later (for a payment creation, check first whether it went through).`,
      details,
    )
  return new GatewayApiError(`${what} The request was not accepted.`, details)
}
