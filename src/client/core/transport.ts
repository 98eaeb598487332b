/**
 * The one place the client talks HTTP: timeouts, retries for reads only, status → error mapping,
 * JSON parsing, and redaction of credentials and customer data from everything an error carries.
 */

import { scrubText, scrubValue, stripUrlQueries, withoutQuery } from '../../lib/redact.js'
import {
  GatewayConnectionError,
  GatewayResponseError,
  GatewayTimeoutError,
  type RequestInfo,
} from './errors.js'
import { backoff, isRetryableStatus, retryAfterMs } from './retry.js'
import { type RawAnswer, statusError } from './status-error.js'
import { buildQuery, type Query } from './url.js'

/** The subset of WHATWG fetch the client needs (a Hono `app.fetch` fits too). */
export type FetchLike = (input: string, init: RequestInit) => Promise<Response> | Response

/** Sends a GET that carries a body, which WHATWG fetch refuses (see src/runtime/node/get-with-body.ts). */
export type GetWithBody = (
  url: string,
  init: { headers: Record<string, string>; body: string; signal?: AbortSignal },
) => Promise<Response>

/** Per-call options accepted by every client method. */
export interface CallOptions {
  /** Time allowed for each attempt, in milliseconds. */
  timeoutMs?: number
  /** Retries after the first attempt; only reads are ever retried. */
  maxRetries?: number
  /** Aborts the call; an aborted call is not retried. */
  signal?: AbortSignal
}

/** How the transport behaves; built once by createGatewayClient. */
export interface TransportSettings {
  fetch: FetchLike
  timeoutMs: number
  maxRetries: number
  sleep: (ms: number) => Promise<void>
  random: () => number
  now: () => number
  getWithBody?: GetWithBody | undefined
  /** Values scrubbed from every error (API key, secret key). */
  secrets: readonly string[]
}

export interface TransportRequest {
  method: 'GET' | 'POST'
  url: string
  query?: Query
  headers?: Record<string, string>
  /** A JSON body; on a GET it is sent through `getWithBody`. */
  body?: unknown
  /** True for reads, which may be retried; creations never are. */
  idempotent: boolean
  options?: CallOptions | undefined
  /** Values about a person (a card payment's name, phone, e-mail), scrubbed from errors like credentials. */
  personal?: readonly string[] | undefined
}

export interface TransportResponse {
  status: number
  headers: Headers
  /** The parsed JSON body, or null for an empty body. */
  data: unknown
  /** Method and URL without its query, for errors raised after the answer was read. */
  request: RequestInfo
  /** A copy of a value with the credentials and the request's personal values scrubbed, for errors built from it. */
  scrub(value: unknown): unknown
}

/** Sends one logical call, retrying reads on connection errors, timeouts, 408, 429 and 5xx. */
export async function send(
  settings: TransportSettings,
  req: TransportRequest,
): Promise<TransportResponse> {
  const url = req.url + buildQuery(req.query)
  // From here on, what an error may quote is scrubbed of the person's data as of the credentials.
  const scrubbing = req.personal?.length
    ? { ...settings, secrets: [...settings.secrets, ...req.personal] }
    : settings
  const info: RequestInfo = {
    method: req.method,
    url: scrubText(withoutQuery(url), scrubbing.secrets),
  }
  const maxRetries = req.idempotent ? (req.options?.maxRetries ?? settings.maxRetries) : 0
  for (let attempt = 0; ; attempt++) {
    let answer: RawAnswer
    try {
      answer = await attemptOnce(scrubbing, req, url, info)
    } catch (error) {
      const callerAborted = req.options?.signal?.aborted === true
      if (attempt < maxRetries && !callerAborted) {
        await settings.sleep(backoff(attempt, settings.random))
        continue
      }
      throw error
    }
    if (answer.status >= 200 && answer.status < 300) return parseSuccess(answer, info, scrubbing)
    const error = statusError(answer, info, scrubbing)
    if (attempt < maxRetries && isRetryableStatus(answer.status)) {
      const hinted = retryAfterMs(answer.headers.get('retry-after'), settings.now())
      await settings.sleep(hinted ?? backoff(attempt, settings.random))
      continue
    }
    throw error
  }
}

async function attemptOnce(
  settings: TransportSettings,
  req: TransportRequest,
  url: string,
  info: RequestInfo,
): Promise<RawAnswer> {
  // setTimeout fires at once for delays beyond 2^31 - 1 ms; no call needs longer.
  const timeoutMs = Math.min(req.options?.timeoutMs ?? settings.timeoutMs, 2 ** 31 - 1)
  const controller = new AbortController()
  const callerSignal = req.options?.signal
  let timedOut = false
  let rejectAborted: (reason: unknown) => void = () => {}
  // A fetch that ignores its signal must still not hang the call: race it against the abort.
  const aborted = new Promise<never>((_, reject) => {
    rejectAborted = reject
  })
  const abort = () => {
    controller.abort()
    rejectAborted(new Error('aborted'))
  }
  const timer = setTimeout(() => {
    timedOut = true
    abort()
  }, timeoutMs)
  if (callerSignal?.aborted) abort()
  callerSignal?.addEventListener('abort', abort)
  aborted.catch(() => {})
  try {
    const headers: Record<string, string> = { Accept: 'application/json', ...req.headers }
    let responsePromise: Promise<Response>
    if (req.body !== undefined) headers['Content-Type'] = 'application/json'
    const body = req.body === undefined ? undefined : JSON.stringify(req.body)
    if (req.method === 'GET' && body !== undefined) {
      if (!settings.getWithBody) throw new TypeError('A GET with a body needs getWithBody')
      responsePromise = settings.getWithBody(url, { headers, body, signal: controller.signal })
    } else {
      const init: RequestInit = { method: req.method, headers, signal: controller.signal }
      if (body !== undefined) init.body = body
      responsePromise = Promise.resolve(settings.fetch(url, init))
    }
    const response = await Promise.race([responsePromise, aborted])
    const text = await Promise.race([response.text(), aborted])
    return { status: response.status, headers: response.headers, text }
  } catch (error) {
    if (timedOut) {
      throw new GatewayTimeoutError(
        `No answer from the gateway within ${timeoutMs} ms (${info.method} ${info.url}). ` +
          'Try again later or raise timeoutMs; a payment creation may still have gone through, ' +
          'so check it before sending it again.',
        timeoutMs,
        { request: info },
      )
    }
    if (callerSignal?.aborted) {
      throw new GatewayConnectionError(`The call was aborted (${info.method} ${info.url}).`, {
        request: info,
      })
    }
    // The runtime's own message may quote the URL it fetched, query and all.
    const reason = stripUrlQueries(scrubText(describe(error), settings.secrets))
    throw new GatewayConnectionError(
      `Could not reach the gateway (${info.method} ${info.url}): ${reason}. ` +
        'Check the network and the client siteUrl/apiUrl, then try again.',
      { request: info, cause: new Error(reason) },
    )
  } finally {
    clearTimeout(timer)
    callerSignal?.removeEventListener('abort', abort)
  }
}

function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error)
  const cause = error.cause instanceof Error ? ` (${error.cause.message})` : ''
  return `${error.message}${cause}`
}

function parseSuccess(
  answer: RawAnswer,
  info: RequestInfo,
  settings: TransportSettings,
): TransportResponse {
  const base = {
    status: answer.status,
    headers: answer.headers,
    request: info,
    scrub: (value: unknown) => scrubValue(value, settings.secrets),
  }
  if (answer.text.trim() === '') return { ...base, data: null }
  try {
    return { ...base, data: JSON.parse(answer.text) }
  } catch {
    throw new GatewayResponseError(
      `The gateway answered ${answer.status} with a body that is not JSON (${info.method} ${info.url}). ` +
        'Check that siteUrl/apiUrl point at the gateway and not at a proxy or an HTML page.',
      {
        status: answer.status,
        body: scrubText(answer.text.slice(0, 2000), settings.secrets),
        request: info,
      },
    )
  }
}
