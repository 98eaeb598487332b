/**
 * Merchants think in Algiers wall-clock time; the database keeps epoch milliseconds. These turn
 * `datetime-local` and `date` form values into instants and back. The offset comes from Intl (not
 * a hard-wired +01:00), so a future change of the zone's rules is picked up by the runtime.
 */

const ZONE = 'Africa/Algiers'

// Made on first use: the first formatter of a process loads Intl's data, which a start need not wait for.
let partsFormat: Intl.DateTimeFormat | undefined
const algiersParts = () =>
  (partsFormat ??= new Intl.DateTimeFormat('en-US', {
    timeZone: ZONE,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }))

type WallClock = {
  year: number
  month: number
  day: number
  hour: number
  minute: number
  second: number
}

function wallClock(ms: number): WallClock {
  const parts = algiersParts().formatToParts(new Date(ms))
  const get = (type: Intl.DateTimeFormatPartTypes) =>
    Number(parts.find((p) => p.type === type)?.value ?? 0)
  return {
    year: get('year'),
    month: get('month'),
    day: get('day'),
    hour: get('hour'),
    minute: get('minute'),
    second: get('second'),
  }
}

/** Minutes Algiers is ahead of UTC at the instant `ms`. */
function offsetMinutes(ms: number): number {
  const w = wallClock(ms)
  const asUtc = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second)
  return Math.round((asUtc - Math.floor(ms / 1000) * 1000) / 60_000)
}

/** The instant of an Algiers wall-clock time given as UTC fields; null when the fields are not a real date. */
function fromWallClock(w: WallClock): number | null {
  const guess = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second)
  const check = new Date(guess)
  if (
    check.getUTCFullYear() !== w.year ||
    check.getUTCMonth() !== w.month - 1 ||
    check.getUTCDate() !== w.day ||
    w.hour > 23 ||
    w.minute > 59 ||
    w.second > 59
  )
    return null
  // Two passes settle on the right offset even next to a change of offset.
  let ms = guess - offsetMinutes(guess) * 60_000
  ms = guess - offsetMinutes(ms) * 60_000
  return ms
}

const DATETIME_LOCAL = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2}))?$/
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/

/** `2026-06-30T23:59` in Algiers → epoch ms; null when it is not such a value. */
export function parseAlgiersDateTime(text: string): number | null {
  const m = DATETIME_LOCAL.exec(text.trim())
  if (!m) return null
  return fromWallClock({
    year: Number(m[1]),
    month: Number(m[2]),
    day: Number(m[3]),
    hour: Number(m[4]),
    minute: Number(m[5]),
    second: Number(m[6] ?? 0),
  })
}

/** `2026-06-30` → the epoch ms at which that day starts in Algiers; null when it is not a date. */
export function algiersDayStart(text: string): number | null {
  const m = DATE.exec(text.trim())
  if (!m) return null
  return fromWallClock({
    year: Number(m[1]),
    month: Number(m[2]),
    day: Number(m[3]),
    hour: 0,
    minute: 0,
    second: 0,
  })
}

/** The start of the Algiers day after `text` (an exclusive upper bound for "to this date"). */
export function algiersNextDayStart(text: string): number | null {
  const m = DATE.exec(text.trim())
  if (!m) return null
  const next = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]) + 1))
  if (algiersDayStart(text) === null) return null
  return algiersDayStart(next.toISOString().slice(0, 10))
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0')

/** Epoch ms → the `datetime-local` value in Algiers, to the minute: `2026-06-30T23:59`. */
export function toAlgiersDateTimeInput(ms: number): string {
  const w = wallClock(ms)
  return `${pad(w.year, 4)}-${pad(w.month)}-${pad(w.day)}T${pad(w.hour)}:${pad(w.minute)}`
}

/** Epoch ms → ISO 8601 in Algiers time with its offset: `2026-01-15T11:00:00+01:00`. */
export function toAlgiersIso(ms: number): string {
  const w = wallClock(ms)
  const offset = offsetMinutes(ms)
  const sign = offset < 0 ? '-' : '+'
  const abs = Math.abs(offset)
  return `${pad(w.year, 4)}-${pad(w.month)}-${pad(w.day)}T${pad(w.hour)}:${pad(w.minute)}:${pad(w.second)}${sign}${pad(Math.trunc(abs / 60))}:${pad(abs % 60)}`
}
