/**
 * The mail side of the outbox: what the start writes so the payment triggers (migration 0013)
 * queue one mail row per e-mail, and the channel the outbox's sender hands those rows to.
 */
import { type Delivery, settings } from '../../db/schema.js'
import type { MailConfig } from '../config.js'
import type { Db } from '../data/db.js'
import { describe } from '../lib/describe-error.js'
import type { Logger } from '../log.js'
import { type AttemptOutcome, claim, failedAttempt, recordAttempt } from '../outbox/deliveries.js'
import { nextAttemptAt } from '../outbox/schedule.js'
import type { OutboxChannel, SendReport } from '../outbox/sender.js'
import { deliverPaymentMails, type MailDeps } from './deliver.js'
import { MailSendError } from './types.js'

/**
 * Sends a mail row (`deliverPaymentMails`): 'skipped' when there was nothing to send; throws to be
 * retried, or a MailSendError marked permanent to give up.
 */
export type MailChannel = (delivery: Delivery) => Promise<'sent' | 'skipped'>

/**
 * Tells the triggers whether to queue mail: `mail_outbox` on only when this process sends it
 * (`sending`: config and a transport), so no rows pile up otherwise; `mail_notices` each when the
 * merchant gets a notice per payment. Written at every start: the configuration may have changed.
 */
export async function writeMailSettings(
  db: Db,
  mail: MailConfig | undefined,
  sending: boolean,
  now: number,
): Promise<void> {
  for (const [key, value] of mailSettings(mail, sending)) {
    await db
      .insert(settings)
      .values({ key, value, createdAt: now })
      .onConflictDoUpdate({ target: settings.key, set: { value } })
  }
}

/** The two settings `writeMailSettings` writes, as key and value (the Worker batches them). */
export function mailSettings(
  mail: MailConfig | undefined,
  sending: boolean,
): Array<[string, string]> {
  const on = sending && mail !== undefined
  return [
    ['mail_outbox', on ? 'on' : 'off'],
    ['mail_notices', on && mail.merchantNotify === 'each' ? 'each' : 'off'],
  ]
}

/** What sends each mail row: its one e-mail (a row from before 0013: the receipt). */
export function mailChannel(deps: MailDeps): MailChannel {
  return (delivery) => {
    if (!delivery.paymentId) return Promise.resolve('skipped')
    return deliverPaymentMails(deps, delivery.paymentId, delivery.mailKind ?? 'customer_receipt')
  }
}

/** What the outbox's mail channel needs beside the sending: the rows' table, the time, the log. */
export interface MailOutboxDeps {
  db: Db
  clock: () => number
  log: Logger
}

/** The outbox's mail channel: each row due, one after the other, through `send`. */
export function mailOutboxChannel(send: MailChannel, deps: MailOutboxDeps): OutboxChannel {
  return { channel: 'mail', send: (rows, report) => sendMailRows(deps, send, rows, report) }
}

async function sendMailRows(
  deps: MailOutboxDeps,
  send: MailChannel,
  rows: Delivery[],
  report: SendReport,
): Promise<void> {
  for (const row of rows) {
    const now = deps.clock()
    const claimed = await claim(deps.db, row, '', now)
    if (!claimed) continue
    report.attempted++
    const started = performance.now()
    let outcome: AttemptOutcome
    try {
      const result = await send(claimed)
      outcome = {
        ...failedAttempt(now, '', null),
        error: null,
        responseExcerpt: result === 'skipped' ? 'skipped' : null,
        durationMs: Math.round(performance.now() - started),
        delivered: true,
      }
      report.delivered++
    } catch (error) {
      // The error names no address (MailSendError); anything else is described, its URLs cut.
      const refused = error instanceof MailSendError ? error : null
      const next = refused?.permanent ? null : nextAttemptAt(claimed.attempts + 1, now)
      outcome = {
        ...failedAttempt(now, describe(error).slice(0, 200), next),
        status: refused?.smtpCode ?? null,
        durationMs: Math.round(performance.now() - started),
      }
    }
    await recordAttempt(deps.db, row.id, outcome)
    deps.log({
      event: 'mail_out',
      delivery: claimed.eventId,
      kind: claimed.mailKind,
      payment_id: claimed.paymentId,
      attempt: claimed.attempts + 1,
      status: outcome.status,
      ...(outcome.delivered
        ? {}
        : { failed: outcome.nextAttemptAt === null, next_attempt_at: outcome.nextAttemptAt }),
    })
  }
}
