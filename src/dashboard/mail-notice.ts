/** The dashboard's word on e-mail receipts, shown where the merchant starts (overview, links). */
import type { DashC } from './context.js'

/** Why no e-mail is sent: no SMTP_URL, or a runtime without a mail transport (Workers). */
export function mailNotice(c: DashC): string | undefined {
  if (c.get('mailTransport')) return undefined
  return c.get('dt')(c.get('config').mail ? 'mailNoWorker' : 'mailOff')
}
