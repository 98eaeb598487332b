/** Timestamps in the shapes the gateway sends. */

/** ISO 8601 with microseconds and a numeric UTC offset, as the direct history shows. */
export function isoMicro(ms: number): string {
  return new Date(ms).toISOString().replace(/\.(\d{3})Z$/, '.$1000+00:00')
}

/** ISO 8601 in UTC with a `Z`. */
export function isoUtc(ms: number): string {
  return new Date(ms).toISOString()
}

/** Parses a `YYYY-MM-DD` calendar date to the first millisecond of that UTC day, or null. */
export function parseDay(text: string): number | null {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return null
  const ms = Date.parse(`${text}T00:00:00Z`)
  if (Number.isNaN(ms) || isoUtc(ms).slice(0, 10) !== text) return null
  return ms
}

/** One day in milliseconds. */
export const DAY_MS = 86_400_000
