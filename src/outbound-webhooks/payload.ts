/**
 * The body of an outbound webhook: `{ type, timestamp, data }`, built once (at the first attempt)
 * and kept, so every retry sends the same bytes under the same webhook-id.
 *
 * `data` is the API's payment object (or link object, for link.completed) as read when the body is
 * built, with the link's id, slug, title, invoice id and memo beside it (`data.link`); the
 * customer's reference is the payment object's `ref`. `data.status` is always the status the event
 * announces: a payment.failed event says `failed` even if the payment was paid later (a late
 * paid then has its own payment.paid event, sent after it). Read the payment from the API for its
 * present state.
 */
import type { Delivery, Link, Payment } from '../../db/schema.js'
import { toLinkObject } from '../api/links/objects.js'
import { toPaymentObject } from '../api/payments/objects.js'
import type { Db } from '../data/db.js'
import { getLinkById } from '../data/links.js'
import { getPaymentById } from '../data/payments.js'

/** What the payload tells of the payment's link. */
function linkSummary(link: Link) {
  return {
    id: link.id,
    slug: link.slug,
    title: link.title,
    invoice_id: link.invoiceId,
    memo: link.memo,
  }
}

/** The announced status of a payment event type (`payment.paid` → `paid`). */
function announcedStatus(type: Delivery['type']): Payment['status'] | null {
  return type.startsWith('payment.') ? (type.slice(8) as Payment['status']) : null
}

/**
 * The JSON text of a delivery's body, or null when its payment or link no longer exists (then
 * there is nothing true left to say, and the delivery is given up).
 */
export async function buildPayload(
  db: Db,
  delivery: Pick<Delivery, 'type' | 'paymentId' | 'linkId' | 'occurredAt'>,
  opts: { publicUrl: string; now: number },
): Promise<string | null> {
  const link = await getLinkById(db, delivery.linkId)
  if (!link) return null
  const timestamp = new Date(delivery.occurredAt).toISOString()
  if (delivery.type === 'link.completed') {
    const data = {
      ...toLinkObject(link, link, opts),
      completed_by_payment_id: delivery.paymentId,
    }
    return JSON.stringify({ type: delivery.type, timestamp, data })
  }
  const payment = delivery.paymentId ? await getPaymentById(db, delivery.paymentId) : null
  if (!payment) return null
  const data = {
    ...toPaymentObject(payment, opts),
    status: announcedStatus(delivery.type) ?? payment.status,
    link: linkSummary(link),
  }
  return JSON.stringify({ type: delivery.type, timestamp, data })
}
