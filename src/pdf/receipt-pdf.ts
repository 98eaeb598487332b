/**
 * The receipt as a PDF (A5): the same elements as the receipt page (views/receipt.tsx), in the
 * receipt's language, Arabic shaped and laid out right to left. Built with pdfkit; the fonts are
 * handed in (the Node runtime reads them from @fontsource/noto-sans-arabic).
 */

import PDFDocument from 'pdfkit'
import { formatAmount, translator } from '../i18n/index.js'
import { drawAmountSection, invoiceSection, type Region } from './amount-section.js'
import { cartSection } from './cart-section.js'
import { type PdfFonts, PdfText, type TextStyle } from './pdf-text.js'
import { type ReceiptPdfInput, receiptRows } from './receipt-input.js'

export { type PdfFonts, parseFonts } from './pdf-text.js'
export type { ReceiptPdfInput } from './receipt-input.js'

const PAGE = { width: 419.53, height: 595.28, margin: 36 }
const MUTED = '#555555'
const GREEN = '#146c2e'

/** Renders the receipt; resolves to the PDF file's bytes. */
export function renderReceiptPdf(input: ReceiptPdfInput, fonts: PdfFonts): Promise<Uint8Array> {
  const t = translator(input.lang)
  const doc = new PDFDocument({
    size: [PAGE.width, PAGE.height],
    margin: PAGE.margin,
    // No standard font: pdfkit would read Helvetica's metrics from its own folder.
    font: null as unknown as string,
    lang: input.lang,
    displayTitle: true,
    info: { Title: `${t('receiptTitle')} · ${input.merchantName}`, Author: input.merchantName },
  })
  const done = collect(doc)
  const text = new PdfText(doc, fonts, t('dir') === 'rtl' ? 'rtl' : 'ltr')
  const x = PAGE.margin
  const width = PAGE.width - 2 * PAGE.margin
  const region: Region = {
    x,
    width,
    // What would go past the page's edge goes on to a further page instead (a long list of
    // items; many values cut at four lines each). Up to the edge, as the receipt always had it:
    // a receipt that was one page stays one page.
    room: (y, height) => {
      if (y + height <= PAGE.height - 2) return y
      doc.addPage()
      return PAGE.margin
    },
  }
  let y = PAGE.margin
  if (input.testMode) {
    doc.rect(0, 0, PAGE.width, 26).fill('#fff3cd')
    text.line(t('testBanner'), x, 17, width, { size: 9, color: '#664d03', align: 'center' })
    y += 8
  }
  y = drawHeader(text, input, x, y, width)
  y = text.paragraph(t('receiptTitle'), x, y + 34, width, {
    size: 18,
    weight: 'bold',
    color: GREEN,
    align: 'center',
  })
  if (input.receipt.linkTitle.trim() !== '') {
    y = text.paragraph(input.receipt.linkTitle, x, y + 22, width, {
      size: 11,
      color: MUTED,
      align: 'center',
    })
  }
  const amount = formatAmount(input.receipt.amount, input.lang)
  y += 36
  text.line(amount, x, y, width, { size: 22, weight: 'bold', align: 'center' })
  y = rule(doc, x, y + 16, width)
  const section =
    cartSection(input.receipt, t) ?? invoiceSection(input.items, input.receipt.amount, t)
  if (section) {
    y = drawAmountSection(text, section, input.lang, t, region, y + 6)
    y = rule(doc, x, y + 6, width)
  }
  y = drawRows(text, receiptRows(input), region, y + 8)
  y = rule(doc, x, region.room(y + 12, 0), width)
  // Each paragraph of the foot on this page if it fits, from its first baseline to its last line's
  // descenders; else on the next.
  const foot = (value: string, gap: number, style: TextStyle) => {
    const below = (text.lineCount(value, width, style) - 1) * style.size * 1.45 + style.size * 0.3
    y = text.paragraph(value, x, region.room(y + gap, below), width, style)
  }
  foot(t('receiptThanks'), 22, { size: 10, align: 'center' })
  if (input.receiptFooter?.trim()) foot(input.receiptFooter, 16, { size: 9, align: 'center' })
  foot(t('support'), 18, { size: 9, color: MUTED, align: 'center' })
  foot(input.receiptUrl, 18, { size: 7.5, color: MUTED, align: 'center' })
  doc.end()
  return done
}

/** The logo's box in the header, as the receipt page's (2.5rem high, at most 10rem wide). */
const LOGO = { height: 30, maxWidth: 120, gap: 6 }

/**
 * The header: the brand's logo on the start side (the right on a right-to-left page) with the
 * merchant's name beside it, as the receipt page shows them; the name alone without a logo, or
 * with one pdfkit cannot draw (WebP: pdfkit embeds PNG and JPEG only). Returns the baseline under
 * which the title goes.
 */
function drawHeader(
  text: PdfText,
  input: ReceiptPdfInput,
  x: number,
  top: number,
  width: number,
): number {
  const style = { size: 11, weight: 'bold', color: MUTED } as const
  const image = logoImage(text.doc, input.logo)
  if (!image) {
    text.line(input.merchantName, x, top + 12, width, style)
    return top + 12
  }
  // A JPEG's orientation tag turns it a quarter: its stored width is then its height.
  const turned = (image.orientation ?? 1) > 4
  const [iw, ih] = turned ? [image.height, image.width] : [image.width, image.height]
  const scale = Math.min(LOGO.height / ih, LOGO.maxWidth / iw)
  const [w, h] = [iw * scale, ih * scale]
  const rtl = text.dir === 'rtl'
  const at = { x: rtl ? x + width - w : x, y: top + (LOGO.height - h) / 2 }
  text.doc.image(image as never, at.x, at.y, { width: w, height: h })
  const nameX = rtl ? x : x + w + LOGO.gap
  // The name's baseline a third of its size under the box's middle: centred beside the logo.
  text.line(input.merchantName, nameX, top + LOGO.height / 2 + 4, width - w - LOGO.gap, style)
  return top + LOGO.height + 2
}

/** An image pdfkit opened (its `openImage` is missing from the typings). */
interface PdfImage {
  width: number
  height: number
  /** A JPEG's EXIF orientation (1 to 8). */
  orientation?: number
}

/**
 * The logo opened for drawing, or null: none stored, a WebP one (no decoder among the
 * dependencies), or bytes pdfkit cannot read (the receipt is still made, with the name alone).
 */
function logoImage(doc: PDFKit.PDFDocument, logo: ReceiptPdfInput['logo']): PdfImage | null {
  if (!logo || (logo.contentType !== 'image/png' && logo.contentType !== 'image/jpeg')) return null
  try {
    // pdfkit reads an ArrayBuffer (a copy: exactly the logo's bytes) as image data.
    const bytes = logo.bytes.slice().buffer
    const opened = (doc as unknown as { openImage(src: ArrayBuffer): PdfImage }).openImage(bytes)
    return opened.width > 0 && opened.height > 0 ? opened : null
  } catch {
    return null
  }
}

/** The label and value rows: the label on the start side, the value beside it, both wrapped. */
function drawRows(
  text: PdfText,
  rows: Array<[string, string]>,
  region: Region,
  top: number,
): number {
  const { x, width } = region
  const labelWidth = Math.round(width * 0.36)
  const gap = 10
  const valueWidth = width - labelWidth - gap
  const rtl = text.dir === 'rtl'
  const labelX = rtl ? x + width - labelWidth : x
  const valueX = rtl ? x : x + labelWidth + gap
  const size = 10
  const leading = size * 1.45
  let y = top
  for (const [label, value] of rows) {
    const labelLines = text.lineCount(label, labelWidth, { size })
    const valueLines = text.lineCount(value, valueWidth, { size, weight: 'bold' })
    y = region.room(y, Math.max(labelLines, valueLines) * leading + 6)
    const baseline = y + size + 4
    text.paragraph(label, labelX, baseline, labelWidth, { size, color: MUTED })
    const last = text.paragraph(value, valueX, baseline, valueWidth, { size, weight: 'bold' })
    y = Math.max(last, baseline + (labelLines - 1) * leading) + 6
  }
  return y
}

function rule(doc: PDFKit.PDFDocument, x: number, y: number, width: number): number {
  doc
    .moveTo(x, y)
    .lineTo(x + width, y)
    .lineWidth(0.6)
    .strokeColor('#cccccc')
    .stroke()
  return y
}

/** The document's bytes once pdfkit has written them all. */
function collect(doc: PDFKit.PDFDocument): Promise<Uint8Array> {
  const chunks: Uint8Array[] = []
  return new Promise((resolve, reject) => {
    doc.on('data', (chunk: Uint8Array) => chunks.push(chunk))
    doc.on('error', reject)
    doc.on('end', () => {
      const out = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0))
      let offset = 0
      for (const chunk of chunks) {
        out.set(chunk, offset)
        offset += chunk.length
      }
      resolve(out)
    })
  })
}
