/**
 * Reading a request body up to a size and never further, on Web APIs only (Node, Workers, the
 * simulator alike). A body that declares a Content-Length over the size is refused without reading
 * a byte; a chunked one is read until it passes the size, and its stream is then cancelled.
 */
import type { Context, Env, MiddlewareHandler } from 'hono'
import { fromUtf8 } from './bytes.js'

/** The bytes of a body within its size, or `ok: false` when it is larger. */
export type BoundedBody = { ok: true; bytes: Uint8Array<ArrayBuffer> } | { ok: false }

const TOO_LARGE: BoundedBody = { ok: false }
const EMPTY = new Uint8Array(0)

/**
 * The body's length as its framing states it: the Content-Length of a request without
 * Transfer-Encoding (HTTP forbids both; the server refuses a body longer than its Content-Length),
 * else null (chunked: the stream alone tells).
 */
export function declaredLength(request: Request): number | null {
  return framedLength(
    request.headers.has('transfer-encoding'),
    request.headers.get('content-length'),
  )
}

/**
 * The length a request's framing states (`framedLength`), read from the runtime's own parse of
 * its headers in the server's bindings (`env`); undefined when the bindings do not tell.
 */
export type DeclaredBodyLength = (env: unknown) => number | null | undefined

/**
 * The length stated by a body's framing: its Content-Length when it has no Transfer-Encoding,
 * else null (see `declaredLength`). For runtimes that hand over their own parse of the headers.
 */
export function framedLength(
  hasTransferEncoding: boolean,
  contentLength: string | null | undefined,
): number | null {
  if (hasTransferEncoding || contentLength === null || contentLength === undefined) return null
  // A malformed length is no promise at all: the stream is then read with the cap.
  return /^\d{1,15}$/.test(contentLength.trim()) ? Number(contentLength) : null
}

/**
 * Reads the body as bytes if it is at most `max` bytes long (see the module comment); `framed` as
 * in `readBoundedText`.
 */
export async function readBoundedBody(
  request: Request,
  max: number,
  framed?: number | null,
): Promise<BoundedBody> {
  const declared = framed === undefined ? declaredLength(request) : framed
  if (declared !== null && declared > max) return TOO_LARGE
  const body = request.body
  if (!body) return { ok: true, bytes: EMPTY }
  if (declared !== null) {
    // Framed by its length: the runtime's own reader is the fastest, and the length is checked
    // again in case a runtime did not hold the sender to its word.
    const bytes = new Uint8Array(await request.arrayBuffer())
    return bytes.length > max ? TOO_LARGE : { ok: true, bytes }
  }
  return readStream(body, max)
}

/**
 * Reads the body as UTF-8 text if it is at most `max` bytes long, else null. A body framed by its
 * length is read with `text()` without touching `request.body` (docs/decisions/performance.md,
 * "The body without `request.body`"). `framed` is the length its framing states when the runtime
 * already knows it (`framedLength`); without it, the request's headers are read.
 */
export function readBoundedText(
  request: Request,
  max: number,
  framed?: number | null,
): Promise<string | null> {
  try {
    const declared = framed === undefined ? declaredLength(request) : framed
    // Chained rather than awaited: one promise fewer on the webhook's path, where each costs more
    // once async hooks are on (docs/decisions/performance.md, "No await for what is already known").
    if (declared !== null && declared <= max)
      // Never more UTF-16 units than bytes: over `max` units, the framing was not held to.
      return request.text().then((text) => (text.length <= max ? text : null))
    return readBoundedBody(request, max, declared).then((body) =>
      body.ok ? fromUtf8(body.bytes) : null,
    )
  } catch (error) {
    return Promise.reject(error)
  }
}

async function readStream(stream: ReadableStream<Uint8Array>, max: number): Promise<BoundedBody> {
  const reader = stream.getReader()
  const chunks: Uint8Array[] = []
  let size = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    size += value.length
    if (size > max) {
      // Nothing more is pulled: the sender's stream is told to stop (on Node the server then
      // discards what is still in flight once the answer is sent, and closes the connection).
      void reader.cancel().catch(() => {})
      return TOO_LARGE
    }
    chunks.push(value)
  }
  if (chunks.length === 1) return { ok: true, bytes: chunks[0] as Uint8Array<ArrayBuffer> }
  const bytes = new Uint8Array(size)
  let offset = 0
  for (const chunk of chunks) {
    bytes.set(chunk, offset)
    offset += chunk.length
  }
  return { ok: true, bytes }
}

/**
 * Reads the request's body if it is at most `max` bytes and puts it back in memory, so handlers
 * read it as usual (`parseBody`, `json`, `text`); false, with nothing more read, when it is larger.
 */
export async function holdBody(c: Context, max: number): Promise<boolean> {
  if (!c.req.raw.body) return true
  const body = await readBoundedBody(c.req.raw, max)
  if (!body.ok) return false
  c.req.raw = new Request(c.req.raw, { body: body.bytes })
  return true
}

/** Answers `tooLarge(c)` for a request whose body is over `max` bytes, before any handler reads it. */
export function bodyLimit<E extends Env>(
  max: number,
  tooLarge: (c: Context<E>) => Response | Promise<Response>,
): MiddlewareHandler<E> {
  return async (c, next) => {
    if (!(await holdBody(c, max))) return tooLarge(c)
    await next()
  }
}
