/**
 * E-mail on Node through nodemailer over SMTP_URL (smtp:// with STARTTLS when the server offers
 * it, or smtps://). nodemailer is loaded on the first message, so the server's start does not
 * pay for it. Errors are thrown as MailSendError, so the outbox tries again or gives up.
 */
import type { Transporter } from 'nodemailer'
import type { MailConfig } from '../../config.js'
import { type MailMessage, MailSendError, type MailTransport } from '../../mail/types.js'

/** A transport sending from `config.from` through `config.smtpUrl`. */
export function nodemailerTransport(config: MailConfig): MailTransport & { close(): void } {
  let transporter: Promise<Transporter> | undefined
  return {
    async send(message: MailMessage) {
      transporter ??= import('nodemailer').then((m) => m.default.createTransport(config.smtpUrl))
      const sending = (await transporter).sendMail({
        from: config.from,
        to: message.to,
        subject: message.subject,
        html: message.html,
        text: message.text,
        attachments: message.attachments.map((a) => ({
          filename: a.filename,
          contentType: a.contentType,
          content: Buffer.from(a.content),
        })),
      })
      await sending.catch((error: unknown) => {
        throw sendError(error)
      })
    },
    close: () => void transporter?.then((t) => t.close()),
  }
}

/** nodemailer's error as a MailSendError; its text may quote the recipient, so addresses go. */
export function sendError(error: unknown): MailSendError {
  const e = error as { code?: unknown; responseCode?: unknown; message?: unknown }
  const smtpCode = typeof e.responseCode === 'number' ? e.responseCode : null
  const code = typeof e.code === 'string' ? e.code : 'ERROR'
  // A 5xx to the envelope (RCPT TO, MAIL FROM) or to the message itself is final; a refused login
  // (EAUTH), a dropped connection or a 4xx may pass once the server or its settings are fixed.
  const permanent =
    smtpCode !== null &&
    smtpCode >= 500 &&
    smtpCode < 600 &&
    (code === 'EENVELOPE' || code === 'EMESSAGE')
  const text = typeof e.message === 'string' ? e.message : String(error)
  const scrubbed = text.replace(/[^\s<>"'(),;:]+@[^\s<>"'(),;:]+/g, '[address]').slice(0, 200)
  return new MailSendError(`${code}: ${scrubbed}`, smtpCode, permanent)
}
