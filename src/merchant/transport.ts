/**
 * One call to the merchant API: the key, the JSON body, the `Idempotency-Key` of a write (made
 * once per call and sent again on each retry, so the server replays instead of writing twice),
 * the timeout, the retries and the error an answer becomes. Only web platform globals (fetch,
 * AbortController, crypto.randomUUID): Node ≥ 20, Workers, Deno and browsers have them.
 */
import {
  errorForStatus,
  PaylinksConnectionError,
  PaylinksError,
  PaylinksTimeoutError,
} from './errors.js'

/** The fetch the SDK calls: the platform's, or yours (a proxy, a test, an instrumented one). */
export type FetchFunction = (
  url: string,
  init: { method: string; headers: Record<string, string>; body?: string; signal: AbortSignal },
) => Promise<{
  status: number
  headers: { get(name: string): string | null }
  text(): Promise<string>
}>

export interface PaylinksOptions {
  /** Paylinks' address (its PUBLIC_URL), e.g. `https://pay.example.dz`. */
  url: string
  /** An API key (`pl_live_…`) or the admin token. */
  apiKey: string
  /** Default: the global `fetch`. */
  fetch?: FetchFunction
  /** Per attempt, in milliseconds; default 30,000. */
  timeoutMs?: number
  /**
   * Retries after a network error, a time-out, 409 `idempotency_key_in_use` (or a 409 with
   * Retry-After), 429 or 5xx; default 2.
   */
  maxRetries?: number
  /**
   * How long to wait before retry `attempt` (1, 2, …), given the answer's `Retry-After` in
   * milliseconds (or null). Default: `defaultRetryDelay`.
   */
  retryDelay?: (attempt: number, retryAfterMs: number | null) => number
}

/** Options of one call. */
export interface RequestOptions {
  /** The `Idempotency-Key` of a write; default: a random UUID, the same for the call's retries. */
  idempotencyKey?: string
  /** Stops the call (and its retries). */
  signal?: AbortSignal
  /** Overrides the client's, for this call. */
  timeoutMs?: number
  maxRetries?: number
}

type QueryValue = string | number | boolean | readonly string[] | null | undefined

export interface ApiRequest {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE'
  /** Under `/api/v1`, e.g. `/links/lnk_1`. */
  path: string
  query?: Record<string, QueryValue> | object
  body?: unknown
}

const DEFAULT_TIMEOUT_MS = 30_000
const DEFAULT_MAX_RETRIES = 2
/** A Retry-After longer than this is not waited for: the error goes to the caller. */
const MAX_RETRY_AFTER_MS = 60_000

/** Exponential backoff with jitter (0.5 s, 1 s, 2 s … up to 8 s), or the server's Retry-After. */
export function defaultRetryDelay(attempt: number, retryAfterMs: number | null): number {
  if (retryAfterMs !== null) return retryAfterMs
  const base = Math.min(500 * 2 ** (attempt - 1), 8_000)
  return base / 2 + Math.random() * (base / 2)
}

/** `Retry-After` in milliseconds: seconds, or an HTTP date; null when absent or unreadable. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | null {
  if (value === null || value.trim() === '') return null
  const text = value.trim()
  if (/^\d+$/.test(text)) return Number(text) * 1000
  const at = Date.parse(text)
  return Number.isNaN(at) ? null : Math.max(0, at - now)
}

function queryString(query: ApiRequest['query']): string {
  const params = new URLSearchParams()
  for (const [key, value] of Object.entries(query ?? {}) as [string, QueryValue][]) {
    if (value === undefined || value === null) continue
    params.set(key, Array.isArray(value) ? value.join(',') : String(value))
  }
  const text = params.toString()
  return text === '' ? '' : `?${text}`
}

/** Why an attempt may be tried again, or null. */
function retryable(error: PaylinksError): boolean {
  if (error.kind === 'connection' || error.kind === 'timeout' || error.kind === 'rate_limit')
    return true
  // A 409 is the object's state, final unless the server says when to ask again (a checkout whose
  // payment is under way answers Retry-After), or the same key's first request still runs.
  if (error.status === 409)
    return error.code === 'idempotency_key_in_use' || error.retryAfterMs !== null
  return error.status !== null && error.status >= 500
}

export class Transport {
  readonly #base: string
  readonly #apiKey: string
  readonly #fetch: FetchFunction
  readonly #timeoutMs: number
  readonly #maxRetries: number
  readonly #retryDelay: (attempt: number, retryAfterMs: number | null) => number

  constructor(options: PaylinksOptions) {
    if (!options || typeof options.url !== 'string' || !/^https?:\/\//i.test(options.url))
      throw new TypeError("Paylinks: `url` must be Paylinks' http(s) address")
    if (typeof options.apiKey !== 'string' || options.apiKey === '')
      throw new TypeError('Paylinks: `apiKey` is required')
    this.#base = `${options.url.replace(/\/+$/, '')}/api/v1`
    this.#apiKey = options.apiKey
    const platformFetch = globalThis.fetch as unknown as FetchFunction | undefined
    const chosen = options.fetch ?? platformFetch
    if (!chosen) throw new TypeError('Paylinks: no global fetch here; pass `fetch`')
    // The global fetch is called unbound (as `fetch(…)`): some platforms refuse another `this`.
    this.#fetch = options.fetch ? options.fetch : (url, init) => chosen(url, init)
    this.#timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS
    this.#maxRetries = options.maxRetries ?? DEFAULT_MAX_RETRIES
    this.#retryDelay = options.retryDelay ?? defaultRetryDelay
  }

  /** Sends the request, retrying what may be retried; the parsed JSON answer, or undefined (204). */
  async request<T>(req: ApiRequest, options: RequestOptions = {}): Promise<T> {
    const url = `${this.#base}${req.path}${queryString(req.query)}`
    const headers: Record<string, string> = {
      authorization: `Bearer ${this.#apiKey}`,
      accept: 'application/json',
    }
    // The body's bytes are made once: the server compares a retry's bytes with the first's.
    const body = req.body === undefined ? undefined : JSON.stringify(req.body)
    if (body !== undefined) headers['content-type'] = 'application/json'
    if (req.method !== 'GET')
      headers['idempotency-key'] = options.idempotencyKey ?? globalThis.crypto.randomUUID()
    const maxRetries = options.maxRetries ?? this.#maxRetries
    for (let attempt = 0; ; attempt++) {
      try {
        return (await this.#attempt(url, req.method, headers, body, options)) as T
      } catch (error) {
        if (!(error instanceof PaylinksError) || !retryable(error) || attempt >= maxRetries)
          throw error
        if (options.signal?.aborted) throw error
        const retryAfter = error.retryAfterMs
        if (retryAfter !== null && retryAfter > MAX_RETRY_AFTER_MS) throw error
        await wait(this.#retryDelay(attempt + 1, retryAfter), options.signal).catch((cause) => {
          throw new PaylinksConnectionError({
            code: 'aborted',
            message: `Stopped by its signal before retry ${attempt + 1} (${req.method} ${url})`,
            cause,
          })
        })
      }
    }
  }

  async #attempt(
    url: string,
    method: string,
    headers: Record<string, string>,
    body: string | undefined,
    options: RequestOptions,
  ): Promise<unknown> {
    const controller = new AbortController()
    const timeoutMs = options.timeoutMs ?? this.#timeoutMs
    let timedOut = false
    const timer = setTimeout(() => {
      timedOut = true
      controller.abort()
    }, timeoutMs)
    const stop = () => controller.abort()
    options.signal?.addEventListener('abort', stop)
    try {
      let res: Awaited<ReturnType<FetchFunction>>
      let text: string
      try {
        if (options.signal?.aborted) throw options.signal.reason
        res = await this.#fetch(url, {
          method,
          headers,
          ...(body !== undefined ? { body } : {}),
          signal: controller.signal,
        })
        text = await res.text()
      } catch (cause) {
        if (timedOut)
          throw new PaylinksTimeoutError({
            code: 'timeout',
            message: `No answer from Paylinks within ${timeoutMs} ms (${method} ${url})`,
            cause,
          })
        throw new PaylinksConnectionError({
          code: options.signal?.aborted ? 'aborted' : 'connection_error',
          message: `Could not reach Paylinks (${method} ${url}): ${describe(cause)}`,
          cause,
        })
      }
      if (res.status >= 200 && res.status < 300) {
        if (text === '') return undefined
        try {
          return JSON.parse(text)
        } catch (cause) {
          throw new PaylinksError({
            status: res.status,
            code: 'unexpected_response',
            message: `Paylinks answered ${res.status} with a body that is not JSON`,
            requestId: res.headers.get('x-request-id'),
            cause,
          })
        }
      }
      throw answerError(res.status, text, res.headers)
    } finally {
      clearTimeout(timer)
      options.signal?.removeEventListener('abort', stop)
    }
  }
}

/** The typed error of a 4xx/5xx answer, from its `{"error": {code, message, fields}}` body. */
function answerError(
  status: number,
  text: string,
  headers: { get(name: string): string | null },
): PaylinksError {
  let problem: { code?: unknown; message?: unknown; fields?: unknown } | undefined
  try {
    const parsed = JSON.parse(text) as { error?: typeof problem }
    if (parsed && typeof parsed.error === 'object' && parsed.error !== null) problem = parsed.error
  } catch {
    problem = undefined
  }
  const fields: Record<string, string> = {}
  if (problem?.fields && typeof problem.fields === 'object')
    for (const [key, value] of Object.entries(problem.fields))
      if (typeof value === 'string') fields[key] = value
  return errorForStatus({
    status,
    code: typeof problem?.code === 'string' ? problem.code : `http_${status}`,
    message:
      typeof problem?.message === 'string'
        ? problem.message
        : `Paylinks answered ${status} without an error object`,
    fields,
    requestId: headers.get('x-request-id'),
    retryAfterMs: parseRetryAfter(headers.get('retry-after')),
  })
}

function describe(error: unknown): string {
  if (error instanceof Error) {
    const cause = (error as { cause?: unknown }).cause
    return cause instanceof Error ? `${error.message} (${cause.message})` : error.message
  }
  return String(error)
}

function wait(ms: number, signal: AbortSignal | undefined): Promise<void> {
  if (ms <= 0) return Promise.resolve()
  return new Promise((resolve, reject) => {
    const timer = setTimeout(done, ms)
    function done() {
      signal?.removeEventListener('abort', abort)
      resolve()
    }
    function abort() {
      clearTimeout(timer)
      reject(signal?.reason)
    }
    signal?.addEventListener('abort', abort, { once: true })
  })
}
