/**
 * Text cut into the characters a reader sees: whole graphemes where the runtime can tell (an
 * emoji with its modifiers, a letter with its marks), else code points. The segmenter is made on
 * first use: building the first one loads ICU's break rules (milliseconds), which a start would
 * otherwise pay before its first request.
 */
let segmenter: Intl.Segmenter | null | undefined

/** `text`'s graphemes (or code points), in order. */
export function graphemes(text: string): string[] {
  segmenter ??=
    typeof Intl !== 'undefined' && 'Segmenter' in Intl
      ? new Intl.Segmenter(undefined, { granularity: 'grapheme' })
      : null
  return segmenter ? Array.from(segmenter.segment(text), (s) => s.segment) : Array.from(text)
}
