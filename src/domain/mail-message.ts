/** An e-mail as Paylinks composes it (src/mail); what sends it is `MailTransport` (src/deps.ts). */

/** A file sent with a message. */
export interface MailAttachment {
  filename: string
  contentType: string
  content: Uint8Array
}

/** One message, ready to send: both an HTML and a plain-text part. */
export interface MailMessage {
  to: string
  subject: string
  html: string
  text: string
  attachments: MailAttachment[]
}
