/** The MIME builder of the Worker's SMTP client, read back by mailparser as a mail client would. */
import { simpleParser } from 'mailparser'
import { describe, expect, it } from 'vitest'
import { buildMime, encodeWords, quotedPrintable } from '../../src/mail/mime.js'
import type { MailMessage } from '../../src/mail/types.js'

const ARABIC_SUBJECT = 'وصل الدفع: 1 500,00 دج إلى متجر الياسمين للعطور والهدايا التقليدية'

function message(over: Partial<MailMessage> = {}): MailMessage {
  return {
    to: 'amina@example.dz',
    subject: 'Your receipt',
    text: 'Hello\n',
    html: '<p>Hello</p>',
    attachments: [],
    ...over,
  }
}

const build = (m: MailMessage, from = 'Boutique <receipts@boutique.test>') =>
  buildMime(m, from, { date: Date.UTC(2026, 10, 26, 9, 30), id: 'abc-123' })

describe('the MIME builder', () => {
  it('writes an Arabic subject and sender name as encoded-words that read back exactly', async () => {
    const raw = build(
      message({ subject: ARABIC_SUBJECT }),
      'متجر الياسمين <receipts@boutique.test>',
    )
    const head = raw.slice(0, raw.indexOf('\r\n\r\n'))
    expect(head).toMatch(/^[\x20-\x7e\r\n\t]*$/)
    const mail = await simpleParser(raw)
    expect(mail.subject).toBe(ARABIC_SUBJECT)
    expect(mail.from?.value).toEqual([{ name: 'متجر الياسمين', address: 'receipts@boutique.test' }])
    expect(mail.to && 'text' in mail.to && mail.to.text).toBe('amina@example.dz')
    expect(mail.date?.toISOString()).toBe('2026-11-26T09:30:00.000Z')
    expect(mail.messageId).toBe('<abc-123@boutique.test>')
  })

  it('keeps a short ASCII subject as it is and quotes a sender name with specials', async () => {
    const raw = build(message({ subject: 'Payment received' }), '"Shop, \\"Gold\\"" <a@b.dz>')
    expect(raw).toContain('\r\nSubject: Payment received\r\n')
    const mail = await simpleParser(raw)
    expect(mail.from?.value[0]).toEqual({ name: 'Shop, "Gold"', address: 'a@b.dz' })
  })

  it('has a text and an HTML part in UTF-8, with CRLF lines of at most 78 characters', async () => {
    const long = `${'Paylinks '.repeat(300)}end`
    const arabic = `${'مرحبًا أمينة، تم قبول الدفع ببطاقتك. '.repeat(60)}`
    const text = `${long}\n.single dot line\n..two dots\n.\nArabic: ${arabic}\nend\n`
    const html = `<!doctype html><html dir="rtl"><body><p>${arabic}</p><p>${long}</p></body></html>`
    const raw = build(message({ text, html }))
    expect(raw.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/)
    for (const line of raw.split('\r\n')) expect(line.length).toBeLessThanOrEqual(78)
    const mail = await simpleParser(raw)
    expect(mail.text).toBe(text)
    expect(mail.html).toBe(html)
    expect(raw).toMatch(/multipart\/alternative/)
    expect(raw).not.toMatch(/multipart\/mixed/)
    // Mostly Arabic goes as base64; mostly Latin as quoted-printable, its dots kept as they are.
    expect(raw).toContain('Content-Transfer-Encoding: base64')
    const french = `Reçu de paiement\n.ligne qui commence par un point\n${long}\n`
    const latin = build(message({ text: french, html: `<p>${long}</p>` }))
    expect(latin).not.toContain('Content-Transfer-Encoding: base64')
    expect(latin).toContain('\r\n.ligne qui commence par un point\r\n')
    for (const line of latin.split('\r\n')) expect(line.length).toBeLessThanOrEqual(78)
    expect((await simpleParser(latin)).text).toBe(french)
  })

  it('puts the attachment beside the two parts in multipart/mixed, bytes intact', async () => {
    const bytes = new Uint8Array(5000).map((_, i) => (i * 7) % 256)
    const raw = build(
      message({
        attachments: [{ filename: 'receipt-R1.html', contentType: 'text/html', content: bytes }],
      }),
    )
    const mail = await simpleParser(raw)
    expect(mail.text).toBe('Hello\n')
    expect(mail.html).toBe('<p>Hello</p>')
    expect(mail.attachments).toHaveLength(1)
    expect(mail.attachments[0]?.filename).toBe('receipt-R1.html')
    expect(mail.attachments[0]?.contentType).toBe('text/html')
    expect(new Uint8Array(mail.attachments[0]!.content)).toEqual(bytes)
  })

  it('encodes quoted-printable to the letter', () => {
    expect(quotedPrintable('a=b café \n')).toBe('a=3Db caf=C3=A9=20\r\n')
    const soft = quotedPrintable('x'.repeat(80))
    expect(soft.split('\r\n').map((l) => l.length)).toEqual([76, 5])
    expect(encodeWords('a\r\nb')).toBe('a b')
  })
})
