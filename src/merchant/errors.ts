/**
 * The SDK's errors. Every failure is a PaylinksError; its `kind` (and subclass, for `instanceof`)
 * says what to do about it, `code` is the API's `error.code` (or the SDK's own for a failure
 * before an answer), `fields` names each bad field of a refused body or query.
 */

export type PaylinksErrorKind =
  | 'auth'
  | 'not_found'
  | 'conflict'
  | 'validation'
  | 'rate_limit'
  | 'api'
  | 'connection'
  | 'timeout'
  | 'webhook'

export interface PaylinksErrorInit {
  status?: number | null
  code: string
  message: string
  fields?: Record<string, string>
  requestId?: string | null
  retryAfterMs?: number | null
  cause?: unknown
}

export class PaylinksError extends Error {
  /** What kind of failure this is; each kind has its subclass. */
  readonly kind: PaylinksErrorKind = 'api'
  /** The HTTP status, or null when no answer came (connection, timeout, webhook). */
  readonly status: number | null
  /** The API's `error.code` (`invalid_body`, `not_found`, …) or the SDK's own. */
  readonly code: string
  /** One message per bad field, keyed by its path (`invoice_items[0].quantity`); `{}` if none. */
  readonly fields: Record<string, string>
  /** The answer's `X-Request-Id`, to find the request in the server's log. */
  readonly requestId: string | null
  /** The answer's `Retry-After` in milliseconds (429, 503), or null. */
  readonly retryAfterMs: number | null

  constructor(init: PaylinksErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause })
    this.name = new.target.name
    this.status = init.status ?? null
    this.code = init.code
    this.fields = init.fields ?? {}
    this.requestId = init.requestId ?? null
    this.retryAfterMs = init.retryAfterMs ?? null
  }
}

/** 401 or 403: a missing, wrong or revoked key, or one whose scope or role does not allow this. */
export class PaylinksAuthError extends PaylinksError {
  override readonly kind = 'auth'
}

/** 404: no object has this id. */
export class PaylinksNotFoundError extends PaylinksError {
  override readonly kind = 'not_found'
}

/** 409: the object's state refuses it (a link with payments, a checkout no longer open, …). */
export class PaylinksConflictError extends PaylinksError {
  override readonly kind = 'conflict'
}

/** 400 or 422: a refused body, query or header; `fields` says which and why. */
export class PaylinksValidationError extends PaylinksError {
  override readonly kind = 'validation'
}

/** 429, after the SDK's own retries: wait `retryAfterMs` (from `Retry-After`) before trying again. */
export class PaylinksRateLimitError extends PaylinksError {
  override readonly kind = 'rate_limit'
}

/** No answer: the network failed (`cause` holds the fetch error). */
export class PaylinksConnectionError extends PaylinksError {
  override readonly kind = 'connection'
}

/** No answer within `timeoutMs`. */
export class PaylinksTimeoutError extends PaylinksError {
  override readonly kind = 'timeout'
}

/** An outbound event whose headers, signature, timestamp or body do not verify. */
export class PaylinksWebhookError extends PaylinksError {
  override readonly kind = 'webhook'
}

/** The error for an API answer with a 4xx or 5xx status. */
export function errorForStatus(init: PaylinksErrorInit & { status: number }): PaylinksError {
  const { status } = init
  if (status === 401 || status === 403) return new PaylinksAuthError(init)
  if (status === 404) return new PaylinksNotFoundError(init)
  if (status === 409) return new PaylinksConflictError(init)
  if (status === 400 || status === 422) return new PaylinksValidationError(init)
  if (status === 429) return new PaylinksRateLimitError(init)
  return new PaylinksError(init)
}
