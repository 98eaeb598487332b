/**
 * What the link page offers for sharing a link: addresses that open WhatsApp, the SMS app and the
 * mail app with a message already written, and an HTML "Pay" button for the merchant's own site.
 */
import type { Language } from '../config.js'
import { MESSAGES, translator } from '../i18n/index.js'

/** The addresses that open each app with the message, in the link's language, and its URL. */
export interface ShareLinks {
  /** The sentence before the URL, in the link's language (the share sheet adds the URL itself). */
  message: string
  /** The whole message: the sentence, then the link's URL. */
  text: string
  whatsapp: string
  sms: string
  email: string
}

/** Share addresses for a link's URL; the message and subject are in the link's language. */
export function shareLinks(link: { title: string; language: Language }, url: string): ShareLinks {
  const message = translator(link.language)('shareText', { title: link.title })
  const text = `${message} ${url}`
  const body = encodeURIComponent(text)
  return {
    message,
    text,
    whatsapp: `https://wa.me/?text=${body}`,
    // `?&body=` is what both Android's and iOS's messages apps read.
    sms: `sms:?&body=${body}`,
    email: `mailto:?subject=${encodeURIComponent(link.title)}&body=${body}`,
  }
}

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]!)
}

const BUTTON_STYLE = [
  'display:inline-block',
  'padding:12px 22px',
  'border-radius:10px',
  'background:#0b5cad',
  'color:#fff',
  'font:700 16px/1.2 system-ui,-apple-system,Segoe UI,Roboto,Noto Sans Arabic,sans-serif',
  'text-decoration:none',
].join(';')

/**
 * A "Pay" button to paste into the merchant's site: one anchor with inline style, no script. It
 * opens the link as a new top-level page, since the card network's page refuses to be framed.
 */
export function payButtonSnippet(link: { language: Language }, url: string): string {
  const t = MESSAGES[link.language]
  return `<a href="${escapeHtml(url)}" target="_blank" rel="noopener" lang="${link.language}" dir="${t.dir}" style="${BUTTON_STYLE}">${escapeHtml(t.payByCard)}</a>`
}
