/**
 * Money at the edges. Inside Paylinks every amount is an integer number of centimes; these helpers
 * convert from and to DZD decimal text without floating-point arithmetic.
 */
import { utf8 } from './bytes.js'
import { graphemes } from './graphemes.js'

/** An integer amount of centimes (1 DZD = 100 centimes). */
export type Centimes = number

const DECIMAL = /^(\d{1,13})(?:\.(\d{0,2}))?$/

/**
 * Parses DZD given as decimal text (`"1500"`, `"1299.5"`, `"12.34"`) or as a JSON number with at
 * most two decimals. Returns centimes, or null when the value is not a non-negative amount with at
 * most two decimals.
 */
export function parseDzd(value: string | number): Centimes | null {
  let text: string
  if (typeof value === 'number') {
    if (!Number.isFinite(value) || value < 0) return null
    // String(n) is the shortest text that round-trips, so 1299.5 gives "1299.5", never "1299.4999…".
    text = String(value)
  } else if (typeof value === 'string') {
    text = value.trim()
  } else {
    return null
  }
  const match = DECIMAL.exec(text)
  if (!match) return null
  const whole = match[1]!
  const fraction = (match[2] ?? '').padEnd(2, '0')
  const centimes = Number.parseInt(whole, 10) * 100 + Number.parseInt(fraction, 10)
  return Number.isSafeInteger(centimes) ? centimes : null
}

/** Parses DZD and throws a RangeError when the value is not a valid amount. */
export function dzdToCentimes(value: string | number): Centimes {
  const centimes = parseDzd(value)
  if (centimes === null)
    throw new RangeError(`Not an amount of DZD with at most two decimals: ${String(value)}`)
  return centimes
}

/**
 * Centimes as DZD decimal text with two decimals: 129950 → "1299.50". Any whole number formats
 * exactly as given, also past 2^53 (SQLite hands back its 64-bit integers as the nearest double)
 * and as a bigint; only a number that is not whole throws a RangeError.
 */
export function centimesToDzd(centimes: Centimes | bigint): string {
  if (typeof centimes === 'number' && !Number.isInteger(centimes))
    throw new RangeError(`Not a whole number of centimes: ${centimes}`)
  // BigInt arithmetic: no division of a large double can round the dinars or lose the centimes.
  const whole = BigInt(centimes)
  const abs = whole < 0n ? -whole : whole
  return `${whole < 0n ? '-' : ''}${abs / 100n}.${String(abs % 100n).padStart(2, '0')}`
}

/** Centimes as the shortest DZD decimal text: 150000 → "1500", 129950 → "1299.5". */
export function centimesToDzdShort(centimes: Centimes | bigint): string {
  return centimesToDzd(centimes)
    .replace(/\.00$/, '')
    .replace(/(\.\d)0$/, '$1')
}

/** Centimes as a JSON number of DZD (for APIs that speak numbers): 129950 → 1299.5. */
export function centimesToDzdNumber(centimes: Centimes | bigint): number {
  return Number(centimesToDzd(centimes))
}

/**
 * Cuts text to at most `maxBytes` UTF-8 bytes on a character boundary (a whole grapheme where the
 * runtime can tell, else a whole code point). The gateway's memo limit is 28 bytes.
 */
export function truncateUtf8(text: string, maxBytes = 28): string {
  if (utf8(text).length <= maxBytes) return text
  let out = ''
  let size = 0
  for (const piece of graphemes(text)) {
    const bytes = utf8(piece).length
    if (size + bytes > maxBytes) break
    out += piece
    size += bytes
  }
  return out
}

/** The gateway's memo: at most 28 UTF-8 bytes, cut on a character boundary (no dangling space). */
export function truncateMemo(memo: string): string {
  const cut = truncateUtf8(memo, 28)
  return cut.length < memo.length ? cut.trimEnd() : cut
}
