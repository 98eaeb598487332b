/**
 * A request body that never ends and counts what was pulled from it, to show that a server read
 * only so far before refusing it (in process, with `app.request`).
 */

export interface EndlessBody {
  /** The body: 16 KiB chunks of `fill`, for ever. */
  stream: ReadableStream<Uint8Array>
  /** Bytes pulled from the stream so far. */
  pulled(): number
  /** Whether the reader cancelled the stream. */
  cancelled(): boolean
}

/** The size of each chunk of an endless body. */
export const CHUNK = 16 * 1024

/** A body of 16 KiB chunks (`a` by default: valid form, JSON and text bytes alike), for ever. */
export function endlessBody(fill = 0x61): EndlessBody {
  const chunk = new Uint8Array(CHUNK).fill(fill)
  let pulled = 0
  let cancelled = false
  const stream = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        pulled += chunk.length
        controller.enqueue(chunk.slice())
      },
      cancel() {
        cancelled = true
      },
    },
    // Nothing is pulled ahead of the reader: `pulled` is what the server asked for.
    { highWaterMark: 0 },
  )
  return { stream, pulled: () => pulled, cancelled: () => cancelled }
}

/** A finite body sent in small chunks with no declared length, as a chunked upload arrives. */
export function chunkedBody(text: string, size = 7): ReadableStream<Uint8Array> {
  const bytes = new TextEncoder().encode(text)
  let offset = 0
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (offset >= bytes.length) return controller.close()
      controller.enqueue(bytes.slice(offset, offset + size))
      offset += size
    },
  })
}

/** `RequestInit` for a streamed body (Node's fetch wants `duplex: 'half'` with a stream). */
export function streamed(
  method: string,
  body: ReadableStream<Uint8Array>,
  headers: Record<string, string> = {},
): RequestInit {
  return { method, body, headers, duplex: 'half' } as RequestInit
}
