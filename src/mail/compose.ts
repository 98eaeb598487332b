/**
 * The e-mails, composed from what the caller read: pure functions returning a message with an
 * HTML part (right to left in Arabic) and a plain-text part. Every value is escaped in the HTML.
 */

import type { ReceiptView } from '../../views/receipt.js'
import type { Language } from '../config.js'
import type { BrandContacts } from '../domain/brand.js'
import { formatAmount, translator } from '../i18n/index.js'
import { cartSection } from '../pdf/cart-section.js'
import { receiptRows } from '../pdf/receipt-input.js'
import { type MailWords, mailText } from './messages.js'
import type { MailMessage } from './types.js'

/** What the customer's receipt shows. */
export interface CustomerReceiptInput {
  to: string
  lang: Language
  merchantName: string
  /** The merchant's contact details and receipt footer from the settings, when set. */
  merchantContacts?: BrandContacts | null | undefined
  receiptFooter?: string | null | undefined
  testMode: boolean
  receipt: ReceiptView
  receiptUrl: string
  /** The receipt's file, attached when there is one: its PDF (Node) or its HTML page (Workers). */
  file: ReceiptFile | null
  /** The e-mail texts of `lang`. */
  words: MailWords
}

/** A receipt as a file to attach. */
export interface ReceiptFile {
  type: 'pdf' | 'html'
  content: Uint8Array
}

/** What the merchant's notice of one paid payment shows. */
export interface MerchantNoticeInput {
  to: string
  lang: Language
  merchantName: string
  testMode: boolean
  receipt: ReceiptView
  customer: { name: string; email: string; phone: string }
  /** The payment in the dashboard. */
  dashboardUrl: string
  /** The e-mail texts of `lang`. */
  words: MailWords
}

/** The receipt e-mail to the customer, in the checkout's language, its file attached. */
export function composeCustomerReceipt(input: CustomerReceiptInput): MailMessage {
  const { lang, receipt } = input
  const t = translator(lang)
  const m = mailText(input.words)
  const amount = formatAmount(receipt.amount, lang)
  const rows = receiptRows(input)
  const name = input.receipt.receiptId.replace(/[^\w-]/g, '_')
  const { file } = input
  const attached = file ? m(file.type === 'pdf' ? 'receiptPdf' : 'receiptHtml') : ''
  return {
    to: input.to,
    subject: oneLine(m('receiptSubject', { amount, merchant: input.merchantName })),
    html: page(lang, input.testMode, t('receiptTitle'), [
      `<p>${esc(m('receiptIntro', { name: receipt.customerName }))}</p>`,
      heading(t('receiptTitle'), receipt.linkTitle, amount),
      linesTable(receipt, lang),
      table(rows, lang),
      `<p><a href="${esc(input.receiptUrl)}">${esc(m('receiptLink'))}</a></p>`,
      attached ? `<p>${esc(attached)}</p>` : '',
      `<p>${esc(t('receiptThanks'))}</p>`,
      input.receiptFooter ? `<p>${esc(input.receiptFooter)}</p>` : '',
      `<p style="color:#555;font-size:13px">${esc(t('support'))}</p>`,
      footer(m('footer', { merchant: input.merchantName })),
    ]),
    text: plain(input.testMode, lang, [
      m('receiptIntro', { name: receipt.customerName }),
      '',
      t('receiptTitle'),
      receipt.linkTitle,
      amount,
      '',
      ...linesText(receipt, lang),
      ...rows.map(([label, value]) => `${label}: ${value}`),
      '',
      `${m('receiptLink')}: ${input.receiptUrl}`,
      attached,
      t('receiptThanks'),
      input.receiptFooter ?? '',
      t('support'),
      '',
      m('footer', { merchant: input.merchantName }),
    ]),
    attachments: file
      ? [
          {
            filename: `receipt-${name}.${file.type}`,
            contentType: file.type === 'pdf' ? 'application/pdf' : 'text/html',
            content: file.content,
          },
        ]
      : [],
  }
}

/** The notice to the merchant of one paid payment, with whom to reach. */
export function composeMerchantNotice(input: MerchantNoticeInput): MailMessage {
  const { lang, receipt } = input
  const m = mailText(input.words)
  const amount = formatAmount(receipt.amount, lang)
  const title = receipt.linkTitle
  const rows: Array<[string, string]> = [
    ...receiptRows(input),
    [m('customerEmail'), input.customer.email],
    [m('customerPhone'), input.customer.phone],
  ]
  return {
    to: input.to,
    subject: oneLine(m('noticeSubject', { amount, title })),
    html: page(lang, input.testMode, m('noticeSubject', { amount, title }), [
      `<p>${esc(m('noticeIntro', { amount, title }))}</p>`,
      table(rows, lang),
      `<p><a href="${esc(input.dashboardUrl)}">${esc(input.dashboardUrl)}</a></p>`,
      footer(m('footer', { merchant: input.merchantName })),
    ]),
    text: plain(input.testMode, lang, [
      m('noticeIntro', { amount, title }),
      '',
      ...rows.map(([label, value]) => `${label}: ${value}`),
      '',
      input.dashboardUrl,
    ]),
    attachments: [],
  }
}

/** HTML-escapes text. */
export function esc(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  )
}

/** A header value on one line (no header injection through a title or name). */
function oneLine(text: string): string {
  return text
    .replace(/[\p{Cc}\u2028\u2029]+/gu, ' ')
    .trim()
    .slice(0, 200)
}

function page(lang: Language, testMode: boolean, title: string, body: string[]): string {
  const t = translator(lang)
  const dir = t('dir')
  const banner = testMode
    ? `<p style="background:#fff3cd;color:#664d03;padding:6px 10px">${esc(t('testBanner'))}</p>`
    : ''
  return [
    '<!doctype html>',
    `<html lang="${lang}" dir="${dir}"><head><meta charset="utf-8"><title>${esc(title)}</title></head>`,
    `<body dir="${dir}" style="font-family:Arial,'Noto Sans Arabic',sans-serif;color:#111;text-align:${dir === 'rtl' ? 'right' : 'left'}">`,
    banner,
    ...body.filter(Boolean),
    '</body></html>',
  ].join('\n')
}

function heading(title: string, linkTitle: string, amount: string): string {
  return [
    `<h1 style="color:#146c2e;font-size:22px">${esc(title)}</h1>`,
    linkTitle ? `<p style="color:#555">${esc(linkTitle)}</p>` : '',
    `<p style="font-size:26px;font-weight:bold"><bdi>${esc(amount)}</bdi></p>`,
  ].join('\n')
}

function table(rows: Array<[string, string]>, lang: Language): string {
  const align = translator(lang)('dir') === 'rtl' ? 'right' : 'left'
  const cells = rows.map(
    ([label, value]) =>
      `<tr><th style="text-align:${align};color:#555;font-weight:normal;padding:3px 12px 3px 0">${esc(label)}</th>` +
      `<td style="text-align:${align};font-weight:bold;padding:3px 0"><bdi>${esc(value)}</bdi></td></tr>`,
  )
  return `<table role="presentation" style="border-collapse:collapse">${cells.join('')}</table>`
}

/** A cart's lines (name, quantity, unit price, line total) and subtotal, as a table; '' for none. */
function linesTable(receipt: ReceiptView, lang: Language): string {
  const section = cartSection(receipt, translator(lang))
  if (!section) return ''
  const t = translator(lang)
  const align = t('dir') === 'rtl' ? 'right' : 'left'
  const end = align === 'right' ? 'left' : 'right'
  const cell = (v: string, a: string, bold = false) =>
    `<td style="text-align:${a};padding:3px 8px;${bold ? 'font-weight:bold;' : ''}"><bdi>${esc(v)}</bdi></td>`
  const head = [t('item'), t('quantity'), t('unitPrice'), t('total')]
    .map(
      (h, i) =>
        `<th style="text-align:${i === 0 ? align : end};color:#555;font-weight:normal;padding:3px 8px">${esc(h)}</th>`,
    )
    .join('')
  const body = section.lines.map(
    (l) =>
      `<tr>${cell(l.description, align)}${cell(String(l.quantity), end)}${cell(formatAmount(l.unitPrice, lang), end)}${cell(formatAmount(l.total, lang), end)}</tr>`,
  )
  const sums = section.sums.map(
    (s) =>
      `<tr><th colspan="3" style="text-align:${end};padding:3px 8px">${esc(s.label)}</th>${cell(formatAmount(s.amount, lang), end, true)}</tr>`,
  )
  return `<table style="border-collapse:collapse;margin-block:8px"><tr>${head}</tr>${body.join('')}${sums.join('')}</table>`
}

/** The same lines in plain text: `3 × Tapis (TAP-1) — 4 500,00 DA — 13 500,00 DA`. */
function linesText(receipt: ReceiptView, lang: Language): string[] {
  const section = cartSection(receipt, translator(lang))
  if (!section) return []
  return [
    ...section.lines.map(
      (l) =>
        `${l.quantity} × ${l.description} — ${formatAmount(l.unitPrice, lang)} — ${formatAmount(l.total, lang)}`,
    ),
    ...section.sums.map((s) => `${s.label}: ${formatAmount(s.amount, lang)}`),
    '',
  ]
}

function footer(text: string): string {
  return `<p style="color:#777;font-size:12px">${esc(text)}</p>`
}

function plain(testMode: boolean, lang: Language, lines: string[]): string {
  const banner = testMode ? [translator(lang)('testBanner'), ''] : []
  return `${[...banner, ...lines].join('\n').replace(/\n{3,}/g, '\n\n')}\n`
}
