/** An e-mail as Paylinks composes it, and what sends it. */

import type { MailTransport } from '../deps.js'
import type { MailMessage } from '../domain/mail-message.js'

export type { MailMessage, MailTransport }

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
