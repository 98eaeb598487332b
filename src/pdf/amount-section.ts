/**
 * The receipt's amount section: what was bought, line by line (description, quantity, unit price,
 * line total), and the sums under the lines. An invoice link's items and their total today; a
 * receipt of another kind (a refund) builds its own section, adding its sums (what was refunded,
 * what remains) under the same lines, and draws it with the same function.
 */
import type { InvoiceItem } from '../../db/schema.js'
import type { Language } from '../config.js'
import { formatAmount, type MessageKey } from '../i18n/index.js'
import type { Centimes } from '../lib/money.js'
import type { PdfText } from './pdf-text.js'

/** One line: what was bought, how many, at what price, and the line's total (centimes). */
export interface AmountLine {
  description: string
  quantity: number
  unitPrice: Centimes
  total: Centimes
}

/** A sum under the lines: its label and amount (centimes); `strong` for the one that counts. */
export interface AmountSum {
  label: string
  amount: Centimes
  strong?: boolean
}

export interface AmountSection {
  lines: AmountLine[]
  sums: AmountSum[]
}

/**
 * The section of an invoice link's items, or null when there are none, or when they no longer add
 * up to the amount paid (a link's items can be replaced after a payment: listing the new ones
 * would misstate what this payment bought).
 */
export function invoiceSection(
  items: readonly InvoiceItem[] | null | undefined,
  paid: Centimes,
  t: (key: MessageKey) => string,
): AmountSection | null {
  if (!items || items.length === 0) return null
  const lines = items.map((item) => ({
    description: item.description,
    quantity: item.quantity,
    unitPrice: item.unitPrice,
    total: item.quantity * item.unitPrice,
  }))
  const total = lines.reduce((sum, line) => sum + line.total, 0)
  if (total !== paid) return null
  return { lines, sums: [{ label: t('total'), amount: total, strong: true }] }
}

/** Where a section is drawn: its column, and how to make room at the foot of a page. */
export interface Region {
  x: number
  width: number
  /** `y` where `height` fits below it, else the top of a new page. */
  room(y: number, height: number): number
}

const SIZE = 9.5
const LEADING = SIZE * 1.45
const GAP = 8
/** The widths of the quantity, unit price and line total columns; the description takes the rest. */
const QTY = 34
const MONEY = 84

/**
 * Draws the section from `top` (the top of its first row) as a table, columns mirrored on a
 * right-to-left page; returns the bottom of its last row. Amounts are formatted here, as the
 * checkout page formats them.
 */
export function drawAmountSection(
  text: PdfText,
  section: AmountSection,
  lang: Language,
  t: (key: MessageKey) => string,
  region: Region,
  top: number,
): number {
  const { x, width } = region
  const rtl = text.dir === 'rtl'
  // A column given from the left of a left-to-right page, placed from the right on the other.
  const column = (offset: number, w: number) => ({
    x: rtl ? x + width - offset - w : x + offset,
    w,
  })
  const descWidth = width - QTY - 2 * MONEY - 3 * GAP
  const cols = {
    desc: column(0, descWidth),
    qty: column(descWidth + GAP, QTY),
    unit: column(descWidth + QTY + 2 * GAP, MONEY),
    total: column(width - MONEY, MONEY),
  }
  const muted = { size: 8, color: '#555555' }
  let y = region.room(top, LEADING * 2)
  const head = y + 8
  text.line(t('item'), cols.desc.x, head, cols.desc.w, muted)
  text.line(t('quantity'), cols.qty.x, head, cols.qty.w, { ...muted, align: 'end' })
  text.line(t('unitPrice'), cols.unit.x, head, cols.unit.w, { ...muted, align: 'end' })
  text.line(t('total'), cols.total.x, head, cols.total.w, { ...muted, align: 'end' })
  y = rule(text, x, head + 5, width)
  for (const line of section.lines) {
    const lines = Math.max(1, text.lineCount(line.description, cols.desc.w, { size: SIZE }))
    y = region.room(y, lines * LEADING + 4)
    const baseline = y + SIZE + 3
    text.paragraph(line.description, cols.desc.x, baseline, cols.desc.w, { size: SIZE })
    const cell = (value: string, col: { x: number; w: number }) =>
      text.paragraph(value, col.x, baseline, col.w, { size: SIZE, align: 'end' })
    cell(String(line.quantity), cols.qty)
    cell(formatAmount(line.unitPrice, lang), cols.unit)
    cell(formatAmount(line.total, lang), cols.total)
    y = baseline + (lines - 1) * LEADING + 4
  }
  y = rule(text, x, y + 2, width)
  for (const sum of section.sums) {
    y = region.room(y, LEADING + 4)
    const baseline = y + SIZE + 4
    const weight = sum.strong ? 'bold' : 'regular'
    const labelWidth = cols.desc.w + QTY + MONEY + 2 * GAP
    const label = column(0, labelWidth)
    text.line(sum.label, label.x, baseline, label.w, { size: SIZE, weight, align: 'end' })
    const amount = formatAmount(sum.amount, lang)
    text.paragraph(amount, cols.total.x, baseline, cols.total.w, {
      size: SIZE,
      weight,
      align: 'end',
    })
    y = baseline + 4
  }
  return y
}

function rule(text: PdfText, x: number, y: number, width: number): number {
  text.doc
    .moveTo(x, y)
    .lineTo(x + width, y)
    .lineWidth(0.5)
    .strokeColor('#dddddd')
    .stroke()
  return y
}
