/**
 * The mail side of the outbox: what the start writes so the payment triggers (migration 0013)
 * queue one mail row per e-mail, and the channel the sender hands those rows to.
 */
import { settings } from '../../db/schema.js'
import type { MailConfig } from '../config.js'
import type { Db } from '../data/db.js'
import type { MailChannel } from '../outbound-webhooks/sender.js'
import { deliverPaymentMails, type MailDeps } from './deliver.js'

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

/** The sender's mail channel: each row sends its one e-mail (a row from before 0013: the receipt). */
export function mailChannel(deps: MailDeps): MailChannel {
  return (delivery) => {
    if (!delivery.paymentId) return Promise.resolve('skipped')
    return deliverPaymentMails(deps, delivery.paymentId, delivery.mailKind ?? 'customer_receipt')
  }
}
