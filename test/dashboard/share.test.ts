/**
 * Sharing a link from its page: the WhatsApp, SMS and e-mail addresses, the "Pay" button's HTML,
 * and the warning when PUBLIC_URL is an address customers' phones cannot open.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { payButtonSnippet, shareLinks } from '../../src/dashboard/share-links.js'
import { type Paylinks, startPaylinks } from '../support/harness.js'
import { storeLink } from '../support/links.js'
import { signedIn } from './helpers.js'

const URL_OF_LINK = 'https://pay.example.dz/l/abc123'
const TRICKY_TITLE = 'Thé & café #2 ? 50% + "bio"'

/** Undoes the HTML escaping of an attribute or a text. */
function unescapeHtml(text: string): string {
  return text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
}

/** The href of the first anchor whose address starts with `prefix`. */
function hrefStarting(html: string, prefix: string): string | undefined {
  for (const match of html.matchAll(/<a [^>]*href="([^"]*)"/g)) {
    const href = unescapeHtml(match[1]!)
    if (href.startsWith(prefix)) return href
  }
  return undefined
}

describe('the share addresses', () => {
  it('put the message and the link URL, encoded, in WhatsApp, SMS and e-mail addresses', () => {
    const share = shareLinks({ title: TRICKY_TITLE, language: 'fr' }, URL_OF_LINK)
    expect(share.text).toBe(`${TRICKY_TITLE} : payez par carte sur ${URL_OF_LINK}`)

    const whatsapp = new URL(share.whatsapp)
    expect(whatsapp.origin + whatsapp.pathname).toBe('https://wa.me/')
    expect([...whatsapp.searchParams.keys()]).toEqual(['text'])
    expect(whatsapp.searchParams.get('text')).toBe(share.text)

    expect(share.sms.startsWith('sms:?&body=')).toBe(true)
    expect(decodeURIComponent(share.sms.slice('sms:?&body='.length))).toBe(share.text)

    const email = new URL(share.email)
    expect(email.protocol).toBe('mailto:')
    expect([...email.searchParams.keys()]).toEqual(['subject', 'body'])
    expect(email.searchParams.get('subject')).toBe(TRICKY_TITLE)
    expect(email.searchParams.get('body')).toBe(share.text)
    // Spaces as %20, never '+', which mail apps would show as a plus sign.
    expect(share.email).not.toContain('+')
    // Only URL-safe characters after the key: the title's &, #, ?, + and quotes are all encoded.
    const encoded = /^[A-Za-z0-9%._~!*'()-]*$/
    expect(share.whatsapp.slice('https://wa.me/?text='.length)).toMatch(encoded)
    expect(share.sms.slice('sms:?&body='.length)).toMatch(encoded)
  })

  it('write the message in the link language', () => {
    const share = shareLinks({ title: 'ورشة', language: 'ar' }, URL_OF_LINK)
    expect(share.message).toBe('ورشة: ادفع بالبطاقة على')
    expect(new URL(share.whatsapp).searchParams.get('text')).toBe(
      `ورشة: ادفع بالبطاقة على ${URL_OF_LINK}`,
    )
  })
})

describe('the pay button snippet', () => {
  it('is one anchor to the link URL that opens a new top-level page, labelled in the link language', () => {
    const snippet = payButtonSnippet({ language: 'ar' }, URL_OF_LINK)
    expect(snippet).toMatch(/^<a [^>]*>[^<]*<\/a>$/)
    expect(snippet).toContain(`href="${URL_OF_LINK}"`)
    expect(snippet).toContain('target="_blank"')
    expect(snippet).toContain('rel="noopener"')
    expect(snippet).toContain('dir="rtl"')
    expect(snippet).toContain('>ادفع بالبطاقة</a>')
    expect(snippet).not.toMatch(/<script|<iframe|src=/i)
    expect(payButtonSnippet({ language: 'en' }, URL_OF_LINK)).toContain('>Pay by card</a>')
  })

  it('escapes the address', () => {
    const snippet = payButtonSnippet({ language: 'fr' }, 'https://pay.example.dz/l/a"b<c>&d')
    expect(snippet).toContain('href="https://pay.example.dz/l/a&quot;b&lt;c&gt;&amp;d"')
  })
})

describe('sharing on the link page', () => {
  let paylinks: Paylinks | undefined
  afterEach(() => paylinks?.close())

  async function linkPage(publicUrl: string, lang = 'en') {
    paylinks = await startPaylinks({ env: { PUBLIC_URL: publicUrl } })
    const link = await storeLink(paylinks, { title: TRICKY_TITLE, language: 'fr' })
    const browser = await signedIn(paylinks)
    const response = await browser.get(`/dashboard/links/${link.id}?lang=${lang}`)
    expect(response.status).toBe(200)
    const poster = await (await paylinks.app.request(`/l/${link.slug}/poster?lang=${lang}`)).text()
    return { html: await response.text(), poster, url: `${publicUrl}/l/${link.slug}` }
  }

  it('offers WhatsApp, SMS, e-mail and the pay button for the link URL', async () => {
    const { html, url } = await linkPage('https://pay.example.dz')
    const share = shareLinks({ title: TRICKY_TITLE, language: 'fr' }, url)
    expect(hrefStarting(html, 'https://wa.me/')).toBe(share.whatsapp)
    expect(hrefStarting(html, 'sms:')).toBe(share.sms)
    expect(hrefStarting(html, 'mailto:')).toBe(share.email)
    expect(html).toMatch(/<button [^>]*data-share[^>]*hidden/)
    const code = /<textarea id="pay-button-code"[^>]*>([^<]*)<\/textarea>/.exec(html)?.[1]
    expect(unescapeHtml(code ?? '')).toBe(payButtonSnippet({ language: 'fr' }, url))
    expect(unescapeHtml(code ?? '')).toContain(`href="${url}" target="_blank"`)
  })

  it('warns on the link page and the poster when PUBLIC_URL is a loopback address', async () => {
    const { html, poster } = await linkPage('http://localhost:8787', 'fr')
    expect(html).toContain('data-warning="local-public-url"')
    expect(unescapeHtml(html)).toContain(
      'Les téléphones des clients ne peuvent pas ouvrir cette adresse (localhost:8787)',
    )
    expect(poster).toContain('data-warning="local-public-url"')
    expect(unescapeHtml(poster)).toContain('(localhost:8787)')
  })

  it('warns in the dashboard language for a private network address', async () => {
    const { html } = await linkPage('http://192.168.1.20:3000', 'ar')
    expect(unescapeHtml(html)).toContain(
      'لا تستطيع هواتف الزبائن فتح هذا العنوان (192.168.1.20:3000)',
    )
  })

  it('does not warn when PUBLIC_URL is a public https address', async () => {
    const { html, poster } = await linkPage('https://pay.example.dz')
    expect(html).not.toContain('data-warning')
    expect(poster).not.toContain('data-warning')
    expect(poster).toContain('https://pay.example.dz/l/')
  })
})
