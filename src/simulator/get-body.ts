/**
 * Reading the JSON body of `GET services/get_products/`. WHATWG Request objects carry no body on
 * GET, so @hono/node-server drops it; it does hand the raw incoming message over as
 * `c.env.incoming`, an async iterable of byte chunks, which is read here without importing any
 * Node module. Other runtimes give null and the caller falls back to the query string.
 */
import type { Context } from 'hono'
import { readBoundedText } from '../lib/bounded-body.js'
import { fromUtf8 } from '../lib/bytes.js'
import { SIMULATOR_BODY_LIMIT } from './body-limit.js'

/** The body's text (null when there is none or it cannot be read), or `tooLarge` past the limit. */
export type GetBody = { text: string | null; tooLarge?: false } | { text: null; tooLarge: true }

function isAsyncIterable(value: unknown): value is AsyncIterable<Uint8Array> {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { [Symbol.asyncIterator]?: unknown })[Symbol.asyncIterator] === 'function'
  )
}

/** The raw body text of a GET request, read up to SIMULATOR_BODY_LIMIT bytes. */
export async function readGetBody(c: Context): Promise<GetBody> {
  const length = Number(c.req.header('content-length') ?? '0')
  const chunked = c.req.header('transfer-encoding') !== undefined
  if (!(length > 0) && !chunked) return { text: null }
  if (length > SIMULATOR_BODY_LIMIT) return { text: null, tooLarge: true }
  if (c.req.raw.body) {
    const text = await readBoundedText(c.req.raw, SIMULATOR_BODY_LIMIT)
    return text === null ? { text: null, tooLarge: true } : { text }
  }
  const incoming = (c.env as { incoming?: unknown } | undefined)?.incoming
  if (!isAsyncIterable(incoming)) return { text: null }
  const chunks: Uint8Array[] = []
  let size = 0
  // Not `for await`: leaving that loop early would destroy the connection before the answer.
  const iterator = incoming[Symbol.asyncIterator]()
  for (;;) {
    const { done, value } = await iterator.next()
    if (done) break
    size += value.length
    if (size > SIMULATOR_BODY_LIMIT) return { text: null, tooLarge: true }
    chunks.push(value)
  }
  const all = new Uint8Array(size)
  let offset = 0
  for (const chunk of chunks) {
    all.set(chunk, offset)
    offset += chunk.length
  }
  return { text: fromUtf8(all) }
}
