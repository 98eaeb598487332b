/**
 * The receipt as a PDF (A5): the same elements as the receipt page (views/receipt.tsx), in the
 * receipt's language, Arabic shaped and laid out right to left. Built with pdfkit; the fonts are
 * handed in (the Node runtime reads them from @fontsource/noto-sans-arabic).
 */
import PDFDocument from 'pdfkit'
import { formatAmount, translator } from '../i18n/index.js'
import { type PdfFonts, PdfText } from './pdf-text.js'
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
  let y = PAGE.margin
  if (input.testMode) {
    doc.rect(0, 0, PAGE.width, 26).fill('#fff3cd')
    text.line(t('testBanner'), x, 17, width, { size: 9, color: '#664d03', align: 'center' })
    y += 8
  }
  y += 12
  text.line(input.merchantName, x, y, width, { size: 11, weight: 'bold', color: MUTED })
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
  y = drawRows(text, receiptRows(input), x, y + 8, width)
  y = rule(doc, x, y + 12, width)
  y = text.paragraph(t('receiptThanks'), x, y + 22, width, { size: 10, align: 'center' })
  if (input.receiptFooter?.trim())
    y = text.paragraph(input.receiptFooter, x, y + 16, width, { size: 9, align: 'center' })
  y = text.paragraph(t('support'), x, y + 18, width, { size: 9, color: MUTED, align: 'center' })
  text.paragraph(input.receiptUrl, x, y + 18, width, { size: 7.5, color: MUTED, align: 'center' })
  doc.end()
  return done
}

/** The label and value rows: the label on the start side, the value beside it, both wrapped. */
function drawRows(
  text: PdfText,
  rows: Array<[string, string]>,
  x: number,
  top: number,
  width: number,
): number {
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
    const baseline = y + size + 4
    const labelLines = text.lineCount(label, labelWidth, { size })
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
