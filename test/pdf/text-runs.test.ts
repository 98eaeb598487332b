import { describe, expect, it } from 'vitest'
import { type HasGlyph, piecesOf, visualSpans, wrapLogical } from '../../src/pdf/text-runs.js'

/** Arabic letters and the space in the Arabic font; the rest in the Latin one. */
const hasGlyph: HasGlyph = (slot, cp) =>
  slot === 'arabic' ? (cp >= 0x600 && cp <= 0x6ff) || cp === 32 : slot === 'latin' && cp < 0x600

const drawn = (text: string, base: 'rtl' | 'ltr') =>
  visualSpans(text, base, hasGlyph).map((s) => `${s.slot}:${s.text}`)

describe('text in drawing order', () => {
  it('puts an Arabic amount’s currency left of its number on a right-to-left page', () => {
    expect(drawn('1.500,50 دج', 'rtl')).toEqual(['arabic:دج', 'latin: ', 'latin:1.500,50'])
  })

  it('keeps Latin words and numbers left to right inside Arabic, in reading order from the right', () => {
    expect(drawn('اشتراك شهري Gold 2025', 'rtl')).toEqual([
      'latin:Gold 2025',
      'arabic:اشتراك شهري ',
    ])
    expect(drawn('14 مارس 2025 في 14:05', 'rtl')).toEqual([
      'latin:14:05',
      'arabic:في ',
      'latin: ',
      'latin:2025',
      'arabic:مارس ',
      'latin: ',
      'latin:14',
    ])
  })

  it('hands the font engine an Arabic run in logical order (it reverses and shapes it itself)', () => {
    expect(drawn('تمت عملية الدفع', 'rtl')).toEqual(['arabic:تمت عملية الدفع'])
  })

  it('mirrors brackets that resolve right to left', () => {
    expect(drawn('متجر (Alger)', 'rtl')).toEqual([
      'latin:(',
      'latin:Alger',
      'latin:)',
      'arabic:متجر ',
    ])
  })

  it('leaves a left-to-right page alone, an Arabic name in it turned for the engine', () => {
    expect(drawn('Client: أمينة', 'ltr')).toEqual(['latin:Client: ', 'arabic:أمينة'])
  })

  it('draws one line of anything: control characters as spaces, characters beyond the fonts as ?', () => {
    expect(drawn('a\nb\u0000c 😀', 'ltr')).toEqual(['latin:a b c ?'])
  })
})

describe('pieces for copying and search', () => {
  const pieces = (text: string, base: 'rtl' | 'ltr') =>
    visualSpans(text, base, hasGlyph).flatMap((span) =>
      piecesOf(span).map((p) => (p.actual === null ? `plain:${p.text}` : `word:${p.actual}`)),
    )

  it('gives each Arabic word its letters in the order they stand, left to right; spaces and stops plain', () => {
    expect(pieces('شكرًا لك.', 'rtl')).toEqual(['plain:.', 'word:كل', 'plain: ', 'word:اًركش'])
  })

  it('hands the engine each Arabic word in reading order (it shapes and reverses it)', () => {
    const [span] = visualSpans('أمينة بن', 'rtl', hasGlyph)
    expect(piecesOf(span!).map((p) => p.text)).toEqual(['بن', ' ', 'أمينة'])
  })

  it('leaves Latin text and numbers whole, read back from their glyphs', () => {
    expect(pieces('Gold 2025', 'ltr')).toEqual(['plain:Gold 2025'])
  })
})

describe('wrapping', () => {
  const measure = (text: string) => text.length

  it('breaks at spaces within the width', () => {
    expect(wrapLogical('one two three four', 9, measure)).toEqual(['one two', 'three', 'four'])
  })

  it('cuts a word longer than the line between characters', () => {
    expect(wrapLogical('abcdefghij', 4, measure)).toEqual(['abcd', 'efgh', 'ij'])
  })
})
