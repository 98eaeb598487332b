/**
 * The client's errors: one small hierarchy so callers can catch by family.
 *
 *   GatewayError
 *   ├─ GatewayConfigurationError   the client is missing a URL or a credential
 *   ├─ ValidationError             a request failed local validation; nothing was sent
 *   ├─ SignatureError              for callers who throw on a bad gateway signature
 *   ├─ GatewayConnectionError      the gateway could not be reached
 *   │  └─ GatewayTimeoutError      no answer within the timeout
 *   └─ GatewayApiError             the gateway answered, with an error or an unusable body
 *      ├─ GatewayBadRequestError   400
 *      ├─ GatewayAuthenticationError 401, 403
 *      ├─ GatewayNotFoundError     404
 *      ├─ GatewayRateLimitError    429
 *      ├─ GatewayServerError       5xx
 *      └─ GatewayResponseError     a 2xx whose body is not JSON or not the expected shape
 *
 * No error ever carries an API key or a secret key: URLs are redacted and bodies scrubbed by the
 * transport before an error is built.
 */

/** Method and redacted URL of the request an error belongs to. */
export interface RequestInfo {
  method: string
  url: string
}

/** Base of every error the client throws. */
export class GatewayError extends Error {
  // Named in full, not from `new.target.name`: the Worker's bundle is minified without names.
  override name = 'GatewayError'
  readonly request: RequestInfo | undefined

  constructor(message: string, options: { request?: RequestInfo; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause })
    this.request = options.request
  }
}

/** The client cannot make this call as configured (a URL or a credential is missing or bad). */
export class GatewayConfigurationError extends GatewayError {
  override name = 'GatewayConfigurationError'
}

/** A request failed local validation; `fields` maps each field path to the rules it broke. */
export class ValidationError extends GatewayError {
  override name = 'ValidationError'
  readonly fields: Record<string, string[]>

  constructor(fields: Record<string, string[]>, context = 'Invalid request') {
    const list = Object.entries(fields)
      .map(([field, rules]) => `${field}: ${rules.join('; ')}`)
      .join(', ')
    super(`${context}: ${list}. Fix these fields; nothing was sent to the gateway.`)
    this.fields = fields
  }
}

/** A gateway signature did not verify; thrown by `assertGatewaySignature`. */
export class SignatureError extends GatewayError {
  override name = 'SignatureError'
}

/** The gateway could not be reached (DNS, refused connection, reset, aborted). */
export class GatewayConnectionError extends GatewayError {
  override name = 'GatewayConnectionError'
}

/** The gateway did not answer within the timeout. */
export class GatewayTimeoutError extends GatewayConnectionError {
  override name = 'GatewayTimeoutError'
  readonly timeoutMs: number

  constructor(message: string, timeoutMs: number, options: { request?: RequestInfo } = {}) {
    super(message, options)
    this.timeoutMs = timeoutMs
  }
}

/** Details of a gateway answer carried by an API error. */
export interface ApiErrorDetails {
  status: number
  body: unknown
  code?: string | undefined
  request?: RequestInfo | undefined
  retryAfterMs?: number | undefined
}

/** The gateway answered with an error status or an unusable body. */
export class GatewayApiError extends GatewayError {
  override name = 'GatewayApiError'
  readonly status: number
  readonly code: string | undefined
  readonly body: unknown

  constructor(message: string, details: ApiErrorDetails) {
    super(message, { request: details.request })
    this.status = details.status
    this.code = details.code
    this.body = details.body
  }
}

/** 400: the gateway rejected the request's content. */
export class GatewayBadRequestError extends GatewayApiError {
  override name = 'GatewayBadRequestError'
}

/** 401 or 403: the API key or the secret key was refused. */
export class GatewayAuthenticationError extends GatewayApiError {
  override name = 'GatewayAuthenticationError'
}

/** 404: the resource (operation, order) is unknown, or the base URL is wrong. */
export class GatewayNotFoundError extends GatewayApiError {
  override name = 'GatewayNotFoundError'
}

/** 429: too many requests. */
export class GatewayRateLimitError extends GatewayApiError {
  override name = 'GatewayRateLimitError'
  readonly retryAfterMs: number | undefined

  constructor(message: string, details: ApiErrorDetails) {
    super(message, details)
    this.retryAfterMs = details.retryAfterMs
  }
}

/** 5xx: the gateway failed. */
export class GatewayServerError extends GatewayApiError {
  override name = 'GatewayServerError'
}

/** A successful status whose body is not JSON, or not the shape the endpoint promises. */
export class GatewayResponseError extends GatewayApiError {
  override name = 'GatewayResponseError'
}
