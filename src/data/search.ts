/**
 * What a merchant types in a search box, made into an FTS5 query that is only ever a list of
 * quoted phrases (docs/decisions/merchant-scale.md, "Search"): nothing typed — `"`, `*`, `NEAR`,
 * `OR`, `col:` — is read as FTS5 syntax. Digits typed as Eastern Arabic ones count as 0-9, and a
 * phone number typed with spaces or dashes, or in its +213 form, finds the stored one.
 */

/** The trigram index finds substrings of three characters or more; fewer are refused. */
export const SEARCH_MIN_CHARS = 3
/** The longest text searched (the longest field searched, a name, is 100 characters). */
export const SEARCH_MAX_CHARS = 100

/** A parsed search: the FTS5 MATCH expression, and an exact id when the text is one. */
export type SearchTerm = {
  /** As normalised (digits, spaces), to show back and to put in links. */
  text: string
  /** `"…" OR "…"`: each phrase quoted, quotes doubled. */
  match: string
  /** A payment id (`pay_…`) or receipt id (also from a pasted receipt URL), matched exactly. */
  exactId: { column: 'id' | 'receiptId'; value: string } | null
}

export type SearchProblem = 'too_short' | 'too_long'

// Eastern Arabic (U+0660–0669) and Persian (U+06F0–06F9) digits, as Arabic keyboards type them.
const ARABIC_DIGITS = /[\u0660-\u0669\u06f0-\u06f9]/g
// Control characters and lone surrogates: nothing a field holds, and a NUL would cut the query.
const NOT_TEXT = /[\p{Cc}\p{Cs}]/gu
// Direction marks and other invisible format characters come along when text is pasted.
const INVISIBLE = /\p{Cf}/gu
const PHONE_LIKE = /^[+\d\s.\-()]+$/
const PAYMENT_ID = /^pay_[A-Za-z0-9]{16}$/
const RECEIPT_ID = /(?:^|\/r\/)([A-Za-z0-9]{22})(?:[/?#]|$)/

const chars = (s: string) => [...s].length

/** The text with Arabic digits as 0-9, invisible characters dropped and spaces collapsed. */
export function normaliseSearchText(raw: string): string {
  return raw
    .replace(ARABIC_DIGITS, (d) => String(d.charCodeAt(0) & 0xf))
    .replace(NOT_TEXT, ' ')
    .replace(INVISIBLE, '')
    .replace(/\s+/g, ' ')
    .trim()
}

/**
 * The phrases a text is searched as: itself, and for something made of digits and separators
 * (a phone, an order number) its digits alone, plus the other form of an Algerian number
 * (0661… ⇄ +213661…): payments store a phone as `0XXXXXXXXX` or `+213XXXXXXXXX`.
 */
function phrasesOf(text: string): string[] {
  const phrases = [text]
  const compact = text.replace(/[\s.\-()]/g, '').replace(/^00/, '+')
  if (PHONE_LIKE.test(text) && /\d/.test(text) && chars(compact) >= SEARCH_MIN_CHARS) {
    phrases.push(compact)
    if (compact.startsWith('+213')) phrases.push(`0${compact.slice(4)}`)
    else if (/^0\d/.test(compact)) phrases.push(`+213${compact.slice(1)}`)
  }
  // A phrase under three characters matches nothing in a trigram index: `+213 6` gives no `06`.
  return [...new Set(phrases)].filter((p) => chars(p) >= SEARCH_MIN_CHARS)
}

/** An FTS5 string: the text in double quotes, its own double quotes doubled. */
export function quotePhrase(text: string): string {
  return `"${text.replaceAll('"', '""')}"`
}

/** Reads a search box; refuses what the index cannot answer (too short) or a bounded text exceeds. */
export function parseSearch(
  raw: string,
): { ok: true; term: SearchTerm } | { ok: false; problem: SearchProblem } {
  const text = normaliseSearchText(raw)
  if (chars(text) > SEARCH_MAX_CHARS) return { ok: false, problem: 'too_long' }
  if (chars(text) < SEARCH_MIN_CHARS) return { ok: false, problem: 'too_short' }
  const phrases = phrasesOf(text)
  const receipt = RECEIPT_ID.exec(text)?.[1]
  const exactId = PAYMENT_ID.test(text)
    ? { column: 'id' as const, value: text }
    : receipt
      ? { column: 'receiptId' as const, value: receipt }
      : null
  return { ok: true, term: { text, match: phrases.map(quotePhrase).join(' OR '), exactId } }
}
