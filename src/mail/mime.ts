/**
 * A MailMessage as the bytes an SMTP server takes (RFC 5322 and MIME), with Web APIs only, so the
 * Worker can send it: a text and an HTML part (multipart/alternative), in multipart/mixed with the
 * attachments. Everything is 7-bit: bodies quoted-printable (mostly ASCII) or base64, non-ASCII
 * subjects and names as RFC 2047 encoded-words; lines end in CRLF, body lines within 76 characters.
 * Kept rather than `mimetext`: docs/decisions/libraries.md, "MIME" (also on long header lines).
 */
import { toBase64 } from '../lib/bytes.js'
import type { MailMessage } from './types.js'

const CRLF = '\r\n'
const utf8 = new TextEncoder()

/** The message's text, headers and body; `from` is MAIL_FROM (`Name <address>` or an address). */
export function buildMime(
  message: MailMessage,
  from: string,
  options: { date: number; id: string },
): string {
  const sender = parseMailbox(from)
  const boundary = (n: number) => `=_paylinks_${n}_${options.id.replace(/\W/g, '')}`
  const alternative = multipart('alternative', boundary(1), [
    textPart('text/plain', message.text),
    textPart('text/html', message.html),
  ])
  const body =
    message.attachments.length === 0
      ? alternative
      : multipart('mixed', boundary(2), [
          alternative,
          ...message.attachments.map((a) =>
            part(
              [
                `Content-Type: ${a.contentType}; name="${a.filename}"`,
                'Content-Transfer-Encoding: base64',
                `Content-Disposition: attachment; filename="${a.filename}"`,
              ],
              base64Lines(a.content),
            ),
          ),
        ])
  return [
    `From: ${mailbox(sender)}`,
    `To: <${message.to}>`,
    `Subject: ${encodeWords(message.subject)}`,
    `Date: ${new Date(options.date).toUTCString().replace('GMT', '+0000')}`,
    `Message-ID: <${options.id}@${sender.address.split('@')[1]}>`,
    'MIME-Version: 1.0',
    body,
  ].join(CRLF)
}

/** `Name <address>`, `"Name" <address>` or `address`, as its parts. */
export function parseMailbox(text: string): { name: string; address: string } {
  const match = /^(.*)<([^<>]+)>\s*$/.exec(text.trim())
  if (!match) return { name: '', address: text.trim() }
  const name = match[1]!.trim()
  const quoted = /^"(.*)"$/.exec(name)?.[1]
  return { name: quoted?.replace(/\\(.)/g, '$1') ?? name, address: match[2]!.trim() }
}

function mailbox({ name, address }: { name: string; address: string }): string {
  if (!name) return `<${address}>`
  const display = /^[\x20-\x7e]*$/.test(name)
    ? `"${name.replace(/["\\]/g, '\\$&')}"`
    : encodeWords(name)
  return `${display} <${address}>`
}

/** A header value as is when short and ASCII, else as folded UTF-8 encoded-words (RFC 2047). */
export function encodeWords(text: string): string {
  const value = text.replace(/[\r\n]+/g, ' ')
  if (/^[\x20-\x7e]{0,60}$/.test(value) && !value.includes('=?')) return value
  const words: string[] = []
  let chunk = ''
  // At most 45 bytes per word (60 characters of base64): whole characters only.
  for (const char of value) {
    if (utf8.encode(chunk + char).length > 45) {
      words.push(chunk)
      chunk = ''
    }
    chunk += char
  }
  words.push(chunk)
  return words.map((w) => `=?UTF-8?B?${toBase64(utf8.encode(w))}?=`).join(`${CRLF} `)
}

function textPart(type: string, text: string): string {
  const bytes = utf8.encode(text.replace(/\r?\n/g, CRLF))
  const nonAscii = bytes.filter((b) => b > 126).length
  // Mostly ASCII reads well as quoted-printable; Arabic is shorter in base64.
  const qp = nonAscii * 3 < bytes.length
  return part(
    [
      `Content-Type: ${type}; charset=utf-8`,
      `Content-Transfer-Encoding: ${qp ? 'quoted-printable' : 'base64'}`,
    ],
    qp ? quotedPrintable(text) : base64Lines(bytes),
  )
}

function part(headers: string[], body: string): string {
  return `${headers.join(CRLF)}${CRLF}${CRLF}${body}`
}

function multipart(kind: string, boundary: string, parts: string[]): string {
  const head = `Content-Type: multipart/${kind}; boundary="${boundary}"${CRLF}${CRLF}`
  return `${head}${parts.map((p) => `--${boundary}${CRLF}${p}${CRLF}`).join('')}--${boundary}--`
}

/** Quoted-printable (RFC 2045): lines of at most 76 characters, soft breaks where needed. */
export function quotedPrintable(text: string): string {
  const lines: string[] = []
  for (const line of text.split(/\r?\n/)) {
    const bytes = utf8.encode(line)
    let out = ''
    bytes.forEach((b, i) => {
      const last = i === bytes.length - 1
      const plain = (b > 32 && b < 127 && b !== 61) || ((b === 32 || b === 9) && !last)
      const piece = plain
        ? String.fromCharCode(b)
        : `=${b.toString(16).toUpperCase().padStart(2, '0')}`
      if (out.length + piece.length > 75) {
        lines.push(`${out}=`)
        out = ''
      }
      out += piece
    })
    lines.push(out)
  }
  return lines.join(CRLF)
}

function base64Lines(bytes: Uint8Array): string {
  return toBase64(bytes).replace(/.{76}/g, `$&${CRLF}`).replace(/\r\n$/, '')
}

/** Base64 of a string's UTF-8 bytes (SMTP AUTH). */
export function base64Text(text: string): string {
  return toBase64(utf8.encode(text))
}
