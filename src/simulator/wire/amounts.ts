/**
 * Amounts as the card network writes and reads them: DZD with at most two decimals, as text
 * ("1299.50", "1299.5") or JSON numbers, and the 28-byte memo. Written for the simulator on its own,
 * not borrowed from the client: a bug in the client's money helpers must fail a test, not be
 * mirrored by the gateway it talks to (docs/decisions/simulator.md). Only the splitting of text
 * into characters is shared (src/lib/graphemes.ts): the runtime's, not a rule of either side.
 */
import { graphemes } from '../../lib/graphemes.js'

/** An integer amount of centimes (1 DZD = 100 centimes). */
export type Centimes = number

/** The longest whole part the simulator accepts: 13 digits keeps every amount a safe integer. */
const MAX_WHOLE_DIGITS = 13

function allDigits(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i)
    if (code < 48 || code > 57) return false
  }
  return true
}

/**
 * Reads DZD sent as decimal text (surrounding white space ignored) or as a JSON number: centimes,
 * or null for anything that is not a non-negative amount with at most two decimals.
 */
export function readDzd(value: unknown): Centimes | null {
  let text: string
  if (typeof value === 'number') {
    if (!Number.isFinite(value) || value < 0) return null
    // The shortest text that reads back as the same number: 1299.5, never 1299.4999….
    text = String(value)
  } else if (typeof value === 'string') {
    text = value.trim()
  } else {
    return null
  }
  const dot = text.indexOf('.')
  const whole = dot < 0 ? text : text.slice(0, dot)
  const fraction = dot < 0 ? '' : text.slice(dot + 1)
  if (whole.length === 0 || whole.length > MAX_WHOLE_DIGITS || fraction.length > 2) return null
  if (!allDigits(whole) || !allDigits(fraction)) return null
  return Number(whole) * 100 + Number(`${fraction}00`.slice(0, 2))
}

/** Centimes as DZD text with two decimals, the card network's usual form: 129950 → "1299.50". */
export function dzdText(centimes: Centimes): string {
  if (!Number.isSafeInteger(centimes)) throw new RangeError(`Not whole centimes: ${centimes}`)
  const sign = centimes < 0 ? '-' : ''
  const digits = String(Math.abs(centimes)).padStart(3, '0')
  return `${sign}${digits.slice(0, -2)}.${digits.slice(-2)}`
}

/** Centimes as the shortest DZD text, as in the signed `message`: 150000 → "1500", 129950 → "1299.5". */
export function dzdShortText(centimes: Centimes): string {
  const text = dzdText(centimes)
  if (text.endsWith('.00')) return text.slice(0, -3)
  return text.endsWith('0') ? text.slice(0, -1) : text
}

/** Centimes as a JSON number of DZD (the /v1 invoices speak numbers): 129950 → 1299.5. */
export function dzdNumber(centimes: Centimes): number {
  // Both the division and reading "1299.50" round the same exact value to the nearest double.
  return centimes / 100
}

/** The longest memo the ledger keeps, in UTF-8 bytes (gateway-facts.md). */
export const MEMO_BYTES = 28

const encoder = new TextEncoder()
/**
 * The memo as the ledger stores it: at most 28 UTF-8 bytes, cut before the first character
 * (a whole grapheme where the runtime can tell) that would pass them, without a trailing space.
 */
export function ledgerMemo(memo: string): string {
  if (encoder.encode(memo).length <= MEMO_BYTES) return memo
  let kept = ''
  let bytes = 0
  for (const piece of graphemes(memo)) {
    bytes += encoder.encode(piece).length
    if (bytes > MEMO_BYTES) break
    kept += piece
  }
  return kept.trimEnd()
}
