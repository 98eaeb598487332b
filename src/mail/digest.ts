/** The merchant's daily digest: the day's paid payments, their count and total. */
import type { Language } from '../config.js'
import { formatAmount, formatDateTime, perLanguage, translator } from '../i18n/index.js'
import type { Centimes } from '../lib/money.js'
import { esc } from './compose.js'
import { type MailWords, mailText } from './messages.js'
import type { MailMessage } from './types.js'

export interface MerchantDigestInput {
  to: string
  lang: Language
  merchantName: string
  testMode: boolean
  /** A time within the day the digest covers. */
  day: number
  payments: Array<{ amount: number; paidAt: number; orderNumber: string | null; title: string }>
  dashboardUrl: string
  /** The e-mail texts of `lang`. */
  words: MailWords
}

const DAY_FORMATS = perLanguage(
  (locale) =>
    new Intl.DateTimeFormat(locale, {
      timeZone: 'Africa/Algiers',
      dateStyle: 'long',
      numberingSystem: 'latn',
    }),
)

/** The digest e-mail, HTML and plain text. */
export function composeMerchantDigest(input: MerchantDigestInput): MailMessage {
  const { lang } = input
  const t = translator(lang)
  const m = mailText(input.words)
  const date = DAY_FORMATS(lang).format(new Date(input.day))
  const total = formatAmount(input.payments.reduce((sum, p) => sum + p.amount, 0) as Centimes, lang)
  const count = input.payments.length
  const intro = count === 0 ? m('digestNone', { date }) : m('digestIntro', { date, count, total })
  const lines = input.payments.map((p) => [
    formatDateTime(p.paidAt, lang),
    formatAmount(p.amount as Centimes, lang),
    p.title,
    p.orderNumber ?? '',
  ])
  const dir = t('dir')
  const align = dir === 'rtl' ? 'right' : 'left'
  const rows = lines
    .map(
      (cells) =>
        `<tr>${cells.map((c) => `<td style="text-align:${align};padding:3px 8px"><bdi>${esc(c)}</bdi></td>`).join('')}</tr>`,
    )
    .join('')
  const banner = input.testMode ? `<p>${esc(t('testBanner'))}</p>` : ''
  return {
    to: input.to,
    subject: m('digestSubject', { count, date, total }),
    html: `<!doctype html>\n<html lang="${lang}" dir="${dir}"><head><meta charset="utf-8"></head><body dir="${dir}" style="text-align:${align}">${banner}<p>${esc(intro)}</p><table role="presentation">${rows}</table><p><a href="${esc(input.dashboardUrl)}">${esc(input.dashboardUrl)}</a></p><p style="color:#777;font-size:12px">${esc(m('footer', { merchant: input.merchantName }))}</p></body></html>`,
    text: `${[...(input.testMode ? [t('testBanner'), ''] : []), intro, '', ...lines.map((cells) => cells.filter(Boolean).join(' · ')), '', input.dashboardUrl].join('\n')}\n`,
    attachments: [],
  }
}
