/**
 * E-mail on Workers: with SMTP_URL, the SMTP client over the runtime's TCP sockets, the outbox's
 * mail channel (the Cron trigger sends the rows), the receipt's HTML file attached (no PDF here),
 * and the daily digest checked at each Cron run, the e-mails' texts read from the static assets;
 * the settings that tell the triggers to queue mail.
 */
import type { RuntimeParts } from '../../app/assemble.js'
import type { Config } from '../../config.js'
import type { Db } from '../../data/db.js'
import type { Logger } from '../../log.js'
import { dailyDigestTicker } from '../../mail/daily-digest.js'
import type { LoadMailWords } from '../../mail/messages.js'
import { mailChannel, mailSettings } from '../../mail/outbox-channel.js'
import { type SmtpConnect, smtpTransport } from '../../mail/smtp.js'
import { receiptHtmlFile } from '../../routes/receipt-file.js'

export interface WorkerMail {
  parts: Pick<RuntimeParts, 'mailTransport' | 'mail'>
  /** `mail_outbox` and `mail_notices`, written by the start (in its settings batch). */
  settings: Array<[string, string]>
  /** The digest's check, for each Cron run, when MERCHANT_NOTIFY is daily. */
  digest: (() => Promise<void>) | undefined
}

/** Mail for this configuration; nothing is sent (nor queued) without SMTP_URL or sockets. */
export function workerMail(
  db: Db,
  config: Config,
  log: Logger,
  clock: () => number,
  connect: SmtpConnect | undefined,
  mailWords: LoadMailWords,
): WorkerMail {
  const mail = config.mail
  if (!mail || !connect)
    return { parts: {}, settings: mailSettings(mail, false), digest: undefined }
  const transport = smtpTransport(mail, connect, { clock })
  const deps = { db, config, transport, mailWords, receiptHtml: receiptHtmlFile, log }
  return {
    parts: { mailTransport: transport, mail: mailChannel(deps) },
    settings: mailSettings(mail, true),
    digest: mail.merchantNotify === 'daily' ? dailyDigestTicker(deps, clock) : undefined,
  }
}
