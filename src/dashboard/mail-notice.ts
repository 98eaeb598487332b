/** The dashboard's word on e-mail receipts, shown where the merchant starts (overview, links). */
import type { DashC } from './context.js'

/** Why no e-mail is sent: no SMTP_URL (Node and Workers both send it once it is set). */
export function mailNotice(c: DashC): string | undefined {
  if (c.get('mailTransport')) return undefined
  return c.get('dt')('mailOff')
}
