/**
 * Mixed Arabic and Latin text for a PDF: each line is cut into spans of one font and one
 * direction, in the order they are drawn from left to right (the Unicode bidirectional algorithm,
 * bidi-js). Shaping (joined Arabic letter forms) is left to the font engine (fontkit, through
 * pdfkit), which lays a right-to-left Arabic span out from its logical text.
 */
import bidiFactory from 'bidi-js'

/** The font slots a span may take: Arabic letters first, then Latin, then Latin Extended. */
export type FontSlot = 'arabic' | 'latin' | 'latinExt'

/** Tells whether a font has a glyph for a code point. */
export type HasGlyph = (slot: FontSlot, codePoint: number) => boolean

/** A piece of one line, drawn left to right after the spans before it. */
export interface Span {
  slot: FontSlot
  /**
   * The text to hand the font engine: logical order for a span the engine reverses itself
   * (right-to-left with Arabic letters in it), drawing order otherwise.
   */
  text: string
  /** The engine reverses this span (its text is in logical order). */
  reversed: boolean
}

const bidi = bidiFactory()

const ARABIC = /[\u0600-\u06FF\u0750-\u077F\u0870-\u08FF\uFB50-\uFDFF\uFE70-\uFEFF]/u

/** Control characters and line breaks become spaces: every text drawn is one line. */
export function oneLine(text: string): string {
  return text.replace(/[\p{Cc}\u2028\u2029]+/gu, ' ').trim()
}

/** Picks the font of each character: Arabic script in the Arabic font, a neutral with its neighbour. */
function slotsOf(chars: string[], hasGlyph: HasGlyph): FontSlot[] {
  const slots: FontSlot[] = []
  let previous: FontSlot = 'latin'
  for (const char of chars) {
    const cp = char.codePointAt(0)!
    let slot: FontSlot
    if (ARABIC.test(char) && hasGlyph('arabic', cp)) slot = 'arabic'
    else if (/[\p{L}\p{N}]/u.test(char) || !hasGlyph(previous, cp)) {
      slot = hasGlyph('latin', cp) ? 'latin' : hasGlyph('latinExt', cp) ? 'latinExt' : 'arabic'
    } else slot = previous
    slots.push(slot)
    previous = slot
  }
  return slots
}

/**
 * Cuts one line (no line breaks) into spans in drawing order, for a paragraph whose base direction
 * is `rtl` or `ltr`. Characters that resolve right-to-left are mirrored (brackets).
 */
export function visualSpans(line: string, base: 'rtl' | 'ltr', hasGlyph: HasGlyph): Span[] {
  const text = drawable(line)
  if (text === '') return []
  const embedding = bidi.getEmbeddingLevels(text, base)
  // bidi-js 1.1 reads this one from the levels array itself, whatever its typings say.
  const mirrored = bidi.getMirroredCharactersMap(text, embedding.levels as never)
  const order = Array.from(text, (_, i) => i)
  for (const [start = 0, end = -1] of bidi.getReorderSegments(text, embedding)) {
    order.splice(start, end - start + 1, ...order.slice(start, end + 1).reverse())
  }
  const slots = slotsOf([...text], hasGlyph)
  const spans: Span[] = []
  let run: { slot: FontSlot; rtl: boolean; indices: number[] } | undefined
  const flush = () => {
    if (!run) return
    const visual = run.indices.map((i) => mirrored.get(i) ?? text[i]!).join('')
    // fontkit reverses a run whose script is right-to-left: hand it such a run in logical order.
    const engineReverses = run.rtl && ARABIC.test(visual)
    spans.push({
      slot: run.slot,
      text: engineReverses ? [...visual].reverse().join('') : visual,
      reversed: engineReverses,
    })
    run = undefined
  }
  for (const index of order) {
    const rtl = (embedding.levels[index]! & 1) === 1
    const slot = slots[index]!
    const last = run?.indices.at(-1)
    const next = last === undefined ? -1 : rtl ? last - 1 : last + 1
    if (run && run.slot === slot && run.rtl === rtl && index === next) run.indices.push(index)
    else {
      flush()
      run = { slot, rtl, indices: [index] }
    }
  }
  flush()
  return spans
}

/** A piece of a span, drawn by itself: an Arabic word carries its own letters. */
export interface Piece {
  /** The text to hand the font engine, as for a span. */
  text: string
  /**
   * The word's letters for copying and search (a PDF's ActualText), where the glyphs alone read
   * back wrong (a letter drawn as a dotless base and its dots reads as another letter), in the
   * order they stand on the page, left to right: see `piecesOf`. Null where the glyphs read back
   * as they are.
   */
  actual: string | null
}

const WORD = /[\p{L}\p{M}\u0640\u200C\u200D]/u
/** Words (letters, marks, tatweel and the joiners that keep a word whole), and what lies between. */
const WORDS_AND_GAPS = /[\p{L}\p{M}\u0640\u200C\u200D]+|[^\p{L}\p{M}\u0640\u200C\u200D]+/gu

/**
 * Cuts a span into pieces in drawing order: a span the engine reverses (Arabic, right to left)
 * into its words and the spaces and punctuation between them, any other span left whole.
 *
 * Text extractors (poppler's pdftotext, and the copy and search of viewers built on it) gather
 * a line's characters by their place on the page, left to right, and then put right-to-left runs
 * back in reading order, as for glyphs each drawn with its own letter. An ActualText stands in
 * for its glyphs at their place, so it is read the same way: one word's letters are given in the
 * order they stand, left to right, and come out in reading order; the spaces and punctuation
 * between words are plain glyphs, so each word is placed on its own. (A line-long ActualText in
 * reading order came back from pdftotext entirely reversed.)
 */
export function piecesOf(span: Span): Piece[] {
  if (!span.reversed) return [{ text: span.text, actual: null }]
  const reverse = (text: string) => [...text].reverse().join('')
  const tokens = span.text.match(WORDS_AND_GAPS) ?? []
  return tokens.reverse().map((token) =>
    WORD.test(token)
      ? { text: token, actual: reverse(token) }
      : // The engine does not reverse text without a right-to-left letter: drawing order.
        { text: reverse(token), actual: null },
  )
}

/**
 * One UTF-16 unit per character (the embedded fonts draw nothing beyond the Basic Multilingual
 * Plane (emoji and the like), which reordering would split in two), and the thin spaces Intl puts in amounts as no-break spaces.
 */
function drawable(text: string): string {
  return oneLine(text)
    .replace(/[\uD800-\uDBFF][\uDC00-\uDFFF]|[\uD800-\uDFFF]/g, '?')
    .replace(/[\u2000-\u200A\u202F\u205F]/g, '\u00A0')
}

/**
 * Breaks a paragraph into lines no wider than `maxWidth` at spaces (a word wider than the line is
 * cut between characters), in logical order: each line is then laid out by `visualSpans`.
 */
export function wrapLogical(
  text: string,
  maxWidth: number,
  measure: (text: string) => number,
): string[] {
  const words = oneLine(text).split(/ +/).filter(Boolean)
  const lines: string[] = []
  let line = ''
  for (const word of words) {
    const candidate = line === '' ? word : `${line} ${word}`
    if (measure(candidate) <= maxWidth) {
      line = candidate
      continue
    }
    if (line !== '') lines.push(line)
    line = word
    while (measure(line) > maxWidth && [...line].length > 1) {
      const chars = [...line]
      // The longest start that fits, found by halving (a stored word may be very long).
      let [fits, tooLong] = [1, chars.length]
      while (tooLong - fits > 1) {
        const mid = (fits + tooLong) >> 1
        if (measure(chars.slice(0, mid).join('')) <= maxWidth) fits = mid
        else tooLong = mid
      }
      lines.push(chars.slice(0, fits).join(''))
      line = chars.slice(fits).join('')
    }
  }
  if (line !== '') lines.push(line)
  return lines
}
