/**
 * E-mail on Node, wired: with SMTP_URL the nodemailer transport, the outbox's mail channel and
 * (MERCHANT_NOTIFY=daily) the digest's timer; the start writes whether the triggers queue mail.
 */
import type { RuntimeParts } from '../../app/assemble.js'
import type { Config } from '../../config.js'
import type { Db } from '../../data/db.js'
import type { ReceiptPdfMaker } from '../../deps.js'
import type { Logger } from '../../log.js'
import { dailyDigestTicker } from '../../mail/daily-digest.js'
import type { MailDeps } from '../../mail/deliver.js'
import { mailWordsInCode } from '../../mail/messages.js'
import { mailChannel, writeMailSettings } from '../../mail/outbox-channel.js'
import { nodemailerTransport } from './mail-transport.js'

/** How often the digest's timer looks at the day: it sends within this after Algiers midnight. */
const DIGEST_CHECK_MS = 60_000

export interface NodeMail {
  /** Spread into `assemble`'s parts: the transport and the outbox's mail channel, or nothing. */
  parts: Pick<RuntimeParts, 'mailTransport' | 'mail'>
  /**
   * Starts the daily digest's timer (unref'd) when notices are daily; returns its stop, which
   * resolves once a digest being sent is done.
   */
  startDigest(): () => Promise<void>
  /** Closes the SMTP connection, at shutdown. */
  close(): void
}

/** Sets up e-mail for this configuration and writes the `mail_outbox` setting for the triggers. */
export async function nodeMail(options: {
  db: Db
  config: Config
  log: Logger
  clock: () => number
  receiptPdf?: ReceiptPdfMaker | undefined
}): Promise<NodeMail> {
  const { db, config, log, clock } = options
  const mail = config.mail
  await writeMailSettings(db, mail, mail !== undefined, clock())
  if (!mail) return { parts: {}, startDigest: () => () => Promise.resolve(), close: () => {} }
  const transport = nodemailerTransport(mail)
  const deps: MailDeps = {
    db,
    config,
    transport,
    mailWords: mailWordsInCode,
    receiptPdf: options.receiptPdf,
    log,
  }
  return {
    parts: { mailTransport: transport, mail: mailChannel(deps) },
    startDigest() {
      if (mail.merchantNotify !== 'daily') return () => Promise.resolve()
      const tick = dailyDigestTicker(deps, clock)
      let running: Promise<void> = Promise.resolve()
      let busy = false
      const check = () => {
        if (busy) return
        busy = true
        running = tick().finally(() => {
          busy = false
        })
      }
      const timer = setInterval(check, DIGEST_CHECK_MS)
      timer.unref()
      check()
      return () => {
        clearInterval(timer)
        return running
      }
    },
    close: transport.close,
  }
}
