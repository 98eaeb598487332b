/**
 * E-mail on Node through nodemailer over SMTP_URL (smtp:// with STARTTLS when the server offers
 * it, or smtps://). nodemailer is loaded on the first message, so the server's start does not
 * pay for it. Errors are thrown as they come, so the outbox tries again.
 */
import type { Transporter } from 'nodemailer'
import type { MailConfig } from '../config.js'
import type { MailMessage, MailTransport } from '../mail/types.js'

/** A transport sending from `config.from` through `config.smtpUrl`. */
export function nodemailerTransport(config: MailConfig): MailTransport & { close(): void } {
  let transporter: Promise<Transporter> | undefined
  return {
    async send(message: MailMessage) {
      transporter ??= import('nodemailer').then((m) => m.default.createTransport(config.smtpUrl))
      await (await transporter).sendMail({
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
    },
    close: () => void transporter?.then((t) => t.close()),
  }
}
