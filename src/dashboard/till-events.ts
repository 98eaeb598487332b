/**
 * The till sale's live screen as Server-Sent Events, on Node: one event now, then one at each
 * change — read at once when the confirmation says a payment of the link changed, and every
 * STREAM_REREAD_MS in case a word was missed (another process wrote it). Node's runtime gives it
 * to the app (`saleEvents`); a Worker's isolates share no word of changes, so its till polls and
 * its upload does not carry this module (docs/decisions/till.md).
 */

import type { SaleEvents } from '../deps.js'
import { isFinalSale, type SaleView } from '../domain/till-sale.js'

/** How often the event stream reads the sale again by itself (the safety net under the word). */
export const STREAM_REREAD_MS = 2_000
/** A stream ends after this long; the browser's EventSource opens a new one. */
const STREAM_LIFE_MS = 5 * 60_000
const HEARTBEAT_MS = 15_000

export const saleEventStream: SaleEvents = (changes, id, readSale, first) => {
  const encoder = new TextEncoder()
  let stop = () => {}
  return new ReadableStream<Uint8Array>({
    start(controller) {
      let last = ''
      let closed = false
      let reading = false
      let again = false
      const send = (text: string) => {
        if (!closed) controller.enqueue(encoder.encode(text))
      }
      const push = (view: SaleView) => {
        const json = JSON.stringify(view)
        if (json === last) return
        last = json
        send(`event: sale\ndata: ${json}\n\n`)
      }
      const read = async () => {
        if (reading) {
          again = true
          return
        }
        reading = true
        try {
          do {
            again = false
            const view = await readSale()
            if (view && !closed) push(view)
          } while (again && !closed)
        } catch {
          // A failed read is retried by the next word or the next periodic read.
        } finally {
          reading = false
        }
      }
      const unwatch = changes.watch(id, () => void read())
      // The server's stop waits for open responses: a stream ends at once.
      const unclose = changes.onClose(() => stop())
      const reread = setInterval(() => void read(), STREAM_REREAD_MS)
      const beat = setInterval(() => send(': beat\n\n'), HEARTBEAT_MS)
      const end = setTimeout(() => stop(), STREAM_LIFE_MS)
      stop = () => {
        if (closed) return
        closed = true
        unwatch()
        unclose()
        clearInterval(reread)
        clearInterval(beat)
        clearTimeout(end)
        try {
          controller.close()
        } catch {
          // Already closed by the reader.
        }
      }
      send('retry: 1000\n\n')
      push(first)
      if (isFinalSale(first.state)) stop()
    },
    cancel() {
      stop()
    },
  })
}
