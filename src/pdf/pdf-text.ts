/**
 * Drawing one-line and wrapped text with pdfkit in the receipt's fonts: per span the font of its
 * script, right-to-left pages aligned from the right. pdfkit embeds only the glyphs used.
 */
import * as fontkit from 'fontkit'
import type PDFDocument from 'pdfkit'
import {
  type FontSlot,
  type HasGlyph,
  oneLine,
  type Piece,
  piecesOf,
  visualSpans,
  wrapLogical,
} from './text-runs.js'

type Font = fontkit.Font

/** The parsed fonts, one per slot and weight; parsed once and shared by every document. */
export interface PdfFonts {
  regular: Record<FontSlot, Font>
  bold: Record<FontSlot, Font>
}

/** Parses font files (WOFF, TrueType or OpenType), one per slot and weight. */
export function parseFonts(files: Record<Weight, Record<FontSlot, Uint8Array>>): PdfFonts {
  const parse = (bytes: Uint8Array): Font => {
    const font = fontkit.create(bytes as never)
    if (!('layout' in font)) throw new Error('A font collection is not a font')
    return font
  }
  const weight = (w: Weight) => ({
    arabic: parse(files[w].arabic),
    latin: parse(files[w].latin),
    latinExt: parse(files[w].latinExt),
  })
  return { regular: weight('regular'), bold: weight('bold') }
}

export type Weight = 'regular' | 'bold'
export type Align = 'start' | 'center' | 'end'

const SLOTS: FontSlot[] = ['arabic', 'latin', 'latinExt']
/** A value longer than this many lines is cut: the receipt stays one page. */
const MAX_LINES = 4

/** A pdfkit document with the receipt's fonts registered, and the page's direction. */
export class PdfText {
  private readonly hasGlyph: HasGlyph

  constructor(
    readonly doc: PDFKit.PDFDocument,
    fonts: PdfFonts,
    readonly dir: 'rtl' | 'ltr',
  ) {
    // pdfkit takes a parsed fontkit font as it is, and subsets it for this document.
    for (const weight of ['regular', 'bold'] as const) {
      for (const slot of SLOTS) doc.registerFont(`${weight}-${slot}`, fonts[weight][slot] as never)
    }
    // Coverage is the same in both weights: the regular fonts answer for both.
    this.hasGlyph = (slot, codePoint) => fonts.regular[slot].hasGlyphForCodePoint(codePoint)
  }

  /** The width of a line of text at a size and weight. */
  width(text: string, size: number, weight: Weight = 'regular'): number {
    let total = 0
    for (const span of visualSpans(text, this.dir, this.hasGlyph)) {
      this.doc.font(`${weight}-${span.slot}`).fontSize(size)
      for (const piece of piecesOf(span)) total += this.pieceWidth(piece)
    }
    return total
  }

  /**
   * Draws one line with its baseline at `y`, within `[x, x + width]`, aligned to the start (the
   * right on a right-to-left page), the centre or the end.
   */
  line(text: string, x: number, y: number, width: number, style: TextStyle): void {
    const { size, weight = 'regular', color = '#111111', align = 'start' } = style
    const spans = visualSpans(text, this.dir, this.hasGlyph)
    const total = this.width(text, size, weight)
    const fromLeft = (align === 'start') === (this.dir === 'ltr')
    let cx = align === 'center' ? x + (width - total) / 2 : fromLeft ? x : x + width - total
    this.doc.fillColor(color)
    for (const span of spans) {
      this.doc.font(`${weight}-${span.slot}`).fontSize(size)
      for (const piece of piecesOf(span)) {
        this.drawPiece(piece, cx, y)
        cx += this.pieceWidth(piece)
      }
    }
  }

  /**
   * Draws a piece at `x` on the baseline `y`; an Arabic word inside a marked-content span whose
   * ActualText is the word's letters (see `piecesOf`). The span is opened inside pdfkit's text
   * object: pdfkit draws text in its own saved state with a flipped matrix, and a reader places an
   * ActualText where its glyphs were with the state it has at the span's end (poppler put words
   * opened outside at the page's other end, one point wide).
   */
  private drawPiece(piece: Piece, x: number, y: number): void {
    // Without `features`, pdfkit lays words out one by one and puts them left to right in
    // logical order, which would reverse the words of an Arabic span.
    const draw = () => {
      this.doc.text(piece.text, x, y, { lineBreak: false, baseline: 'alphabetic', features: [] })
    }
    if (piece.actual === null) {
      draw()
      return
    }
    const doc = this.doc as unknown as { addContent(data: string): unknown }
    const write = doc.addContent.bind(this.doc)
    const span = `/Span <</ActualText ${utf16be(piece.actual)}>> BDC`
    doc.addContent = (data: string) => {
      if (data === 'ET') write('EMC')
      write(data)
      if (data === 'BT') write(span)
      return this.doc
    }
    try {
      draw()
    } finally {
      // The document's own method again (the one above shadowed it on this object only).
      delete (doc as { addContent?: unknown }).addContent
    }
  }

  /** A piece's width in the current font and size; `features` as in `line`. */
  private pieceWidth(piece: Piece): number {
    return this.doc.widthOfString(piece.text, { features: [] })
  }

  /** Draws text wrapped to `width`; returns the baseline of the last line drawn. */
  paragraph(text: string, x: number, y: number, width: number, style: TextStyle): number {
    const leading = style.size * 1.45
    const lines = this.lines(text, width, style)
    for (const [i, line] of lines.entries()) this.line(line, x, y + i * leading, width, style)
    return y + Math.max(0, lines.length - 1) * leading
  }

  /** How many lines `paragraph` would take. */
  lineCount(text: string, width: number, style: TextStyle): number {
    return this.lines(text, width, style).length
  }

  /** The wrapped lines, at most MAX_LINES: the rest of a text that long ends in an ellipsis. */
  private lines(text: string, width: number, style: TextStyle): string[] {
    const measure = (t: string) => this.width(t, style.size, style.weight ?? 'regular')
    // Stored text may be long: only what the lines can hold is measured.
    const lines = wrapLogical(oneLine(text).slice(0, 1000), width, measure)
    if (lines.length <= MAX_LINES) return lines
    const kept = lines.slice(0, MAX_LINES)
    let last = `${kept[MAX_LINES - 1]!}…`
    while (measure(last) > width && last.length > 1) last = `${last.slice(0, -2)}…`
    kept[MAX_LINES - 1] = last
    return kept
  }
}

export interface TextStyle {
  size: number
  weight?: Weight
  color?: string
  align?: Align
}

/** A PDF text string in UTF-16BE with its byte order mark, written in hex (nothing to escape). */
export function utf16be(text: string): string {
  let hex = 'FEFF'
  for (let i = 0; i < text.length; i++) hex += text.charCodeAt(i).toString(16).padStart(4, '0')
  return `<${hex.toUpperCase()}>`
}

/** pdfkit's document type, without importing it at run time here. */
export type PdfDocumentClass = typeof PDFDocument
