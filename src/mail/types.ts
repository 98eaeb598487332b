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

/**
 * What a transport throws when a message was not accepted: the SMTP reply code when the server
 * answered, and whether the refusal is for good (a 5xx to this message's envelope or content, so
 * trying again would get the same answer). The message names no address.
 */
export class MailSendError extends Error {
  constructor(
    message: string,
    readonly smtpCode: number | null,
    readonly permanent: boolean,
  ) {
    super(message)
    this.name = 'MailSendError'
  }
}
