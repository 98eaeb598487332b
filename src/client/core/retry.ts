/** When and how long to wait before retrying a read. */

const INITIAL_BACKOFF_MS = 500
const MAX_BACKOFF_MS = 8_000
const MAX_RETRY_AFTER_MS = 30_000

/** Statuses worth another attempt of a read: time-outs, rate limits and server failures. */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 429 || status >= 500
}

/** Exponential backoff with up to 25% jitter taken off, so clients do not retry in lockstep. */
export function backoff(attempt: number, random: () => number): number {
  const base = Math.min(INITIAL_BACKOFF_MS * 2 ** attempt, MAX_BACKOFF_MS)
  return Math.round(base * (1 - 0.25 * random()))
}

/** `Retry-After` in milliseconds (delta seconds or an HTTP date), capped; undefined when absent. */
export function retryAfterMs(header: string | null, now: number): number | undefined {
  if (!header) return undefined
  const text = header.trim()
  let ms: number
  if (/^\d+(\.\d+)?$/.test(text)) ms = Number(text) * 1000
  else {
    const date = Date.parse(text)
    if (Number.isNaN(date)) return undefined
    ms = date - now
  }
  return Math.min(Math.max(0, Math.round(ms)), MAX_RETRY_AFTER_MS)
}
