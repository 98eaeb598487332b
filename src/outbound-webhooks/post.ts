/**
 * One attempt over HTTP: a POST with a timeout, redirects not followed (a redirect could lead to
 * an address the target check refused), and at most 1 KB of the answer kept for the log.
 */

/** How long a receiver may take to answer. */
export const ATTEMPT_TIMEOUT_MS = 10_000
/** The most of an answer kept in the delivery log. */
export const EXCERPT_BYTES = 1024

export interface PostResult {
  status: number | null
  excerpt: string | null
  error: string | null
  durationMs: number
}

/** One webhook POST as the sender makes it. */
export interface WebhookRequest {
  url: string
  headers: Record<string, string>
  body: string
  signal: AbortSignal
  /**
   * The addresses the target check resolved the URL's host to and passed: the connection must go
   * to one of them, with the URL's host still in the Host header and the TLS server name. Null:
   * nothing was resolved (an IP literal, simulator mode, or a runtime that cannot resolve).
   */
  addresses: readonly string[] | null
}

/**
 * How a runtime sends a webhook POST, never following a redirect. Node connects to the checked
 * addresses (src/runtime/node/pinned-fetch.ts); the default, the global fetch, cannot choose the address
 * and resolves the host itself (Workers, whose fetch does not reach private networks).
 */
export type WebhookFetch = (request: WebhookRequest) => Promise<Response>

/** The global fetch as a `WebhookFetch`: it ignores `addresses`. */
export const globalWebhookFetch: WebhookFetch = (request) =>
  fetch(request.url, {
    method: 'POST',
    headers: request.headers,
    body: request.body,
    redirect: 'manual',
    signal: request.signal,
  })

/** POSTs `body` to `url` (at `addresses`); never throws (a network error or a timeout comes back as `error`). */
export async function postOnce(
  send: WebhookFetch,
  target: { url: string; addresses: readonly string[] | null },
  headers: Record<string, string>,
  body: string,
  timeoutMs = ATTEMPT_TIMEOUT_MS,
): Promise<PostResult> {
  const started = performance.now()
  const abort = new AbortController()
  const timer = setTimeout(() => abort.abort(), timeoutMs)
  const elapsed = () => Math.round(performance.now() - started)
  try {
    const response = await send({
      url: target.url,
      addresses: target.addresses,
      headers: {
        'content-type': 'application/json',
        'user-agent': 'Paylinks-Webhooks/1',
        ...headers,
      },
      body,
      signal: abort.signal,
    })
    const excerpt = await readExcerpt(response)
    return { status: response.status, excerpt, error: null, durationMs: elapsed() }
  } catch (error) {
    const message = abort.signal.aborted
      ? `timeout after ${timeoutMs} ms`
      : error instanceof Error
        ? `${error.name}: ${error.message}`.slice(0, 200)
        : 'network error'
    return { status: null, excerpt: null, error: message, durationMs: elapsed() }
  } finally {
    clearTimeout(timer)
  }
}

/** The first EXCERPT_BYTES of the answer as text; the rest is not read. */
async function readExcerpt(response: Response): Promise<string | null> {
  if (!response.body) return null
  const reader = response.body.getReader()
  const chunks: Uint8Array[] = []
  let size = 0
  try {
    while (size < EXCERPT_BYTES) {
      const { done, value } = await reader.read()
      if (done) break
      chunks.push(value)
      size += value.byteLength
    }
  } finally {
    reader.cancel().catch(() => {})
  }
  const bytes = new Uint8Array(Math.min(size, EXCERPT_BYTES))
  let offset = 0
  for (const chunk of chunks) {
    const part = chunk.subarray(0, bytes.length - offset)
    bytes.set(part, offset)
    offset += part.length
    if (offset >= bytes.length) break
  }
  // A character cut in two at the end shows as U+FFFD rather than failing.
  return new TextDecoder().decode(bytes)
}
