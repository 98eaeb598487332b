/** An e-mail as Paylinks composes it, and what sends it. */

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

/**
 * Sends messages. `send` resolves once the server accepted the message and throws otherwise,
 * so the caller (the outbox) tries again later. The From address is the transport's.
 */
export interface MailTransport {
  send(message: MailMessage): Promise<void>
}
