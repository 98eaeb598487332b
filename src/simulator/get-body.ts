/**
 * Reading the JSON body of `GET services/get_products/`. WHATWG Request objects carry no body on
 * GET, so @hono/node-server drops it; it does hand the raw incoming message over as
 * `c.env.incoming`, an async iterable of byte chunks, which is read here without importing any
 * Node module. Other runtimes give null and the caller falls back to the query string.
 */
import type { Context } from 'hono'
import { fromUtf8 } from '../client/core/bytes.js'

const MAX_BODY_BYTES = 64 * 1024

function isAsyncIterable(value: unknown): value is AsyncIterable<Uint8Array> {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { [Symbol.asyncIterator]?: unknown })[Symbol.asyncIterator] === 'function'
  )
}

/** The raw body text of a GET request, or null when there is none or it cannot be read. */
export async function readGetBody(c: Context): Promise<string | null> {
  const length = Number(c.req.header('content-length') ?? '0')
  const chunked = c.req.header('transfer-encoding') !== undefined
  if (!(length > 0) && !chunked) return null
  if (c.req.raw.body) return c.req.text()
  const incoming = (c.env as { incoming?: unknown } | undefined)?.incoming
  if (!isAsyncIterable(incoming)) return null
  const chunks: Uint8Array[] = []
  let size = 0
  for await (const chunk of incoming) {
    size += chunk.length
    if (size > MAX_BODY_BYTES) return null
    chunks.push(chunk)
  }
  const all = new Uint8Array(size)
  let offset = 0
  for (const chunk of chunks) {
    all.set(chunk, offset)
    offset += chunk.length
  }
  return fromUtf8(all)
}
