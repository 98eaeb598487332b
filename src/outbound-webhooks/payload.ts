/**
 * The body of an outbound webhook: `{ type, timestamp, data }`, built once (at the first attempt)
 * and kept, so every retry sends the same bytes under the same webhook-id.
 *
 * `data` is the API's payment object (or link object, for link.completed) as read when the body is
 * built, with the link's id, slug, title, invoice id and memo beside it (`data.link`); the
 * customer's reference is the payment object's `ref`, the checkout it was made in `checkout_id`,
 * the link's metadata when it started `metadata`. For checkout.completed and checkout.expired,
 * `data` is the API's checkout object with its paid payment as `data.payment` (null for an expiry).
 * `data.status` is always the status the event announces: a payment.failed event says `failed`
 * even if the payment was paid later (a late paid then has its own payment.paid event, sent after
 * it), a checkout.expired `expired` even if a late paid has completed it since. Read the payment or
 * the checkout from the API for its present state.
 */
import type { Delivery, Link, Payment } from '../../db/schema.js'
import { toCheckoutObject } from '../api/checkouts/objects.js'
import { toLinkObject } from '../api/links/objects.js'
import { toPaymentObject } from '../api/payments/objects.js'
import { getCheckoutByLinkId } from '../data/checkouts.js'
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
  if (delivery.type === 'checkout.completed' || delivery.type === 'checkout.expired')
    return checkoutPayload(db, link, delivery, timestamp, opts)
  const payment = delivery.paymentId ? await getPaymentById(db, delivery.paymentId) : null
  if (!payment) return null
  const data = {
    ...toPaymentObject(payment, opts),
    status: announcedStatus(delivery.type) ?? payment.status,
    link: linkSummary(link),
  }
  return JSON.stringify({ type: delivery.type, timestamp, data })
}

/** A checkout event's body: the checkout as the API answers it, with its paid payment (if any). */
async function checkoutPayload(
  db: Db,
  link: Link,
  delivery: Pick<Delivery, 'type' | 'paymentId'>,
  timestamp: string,
  opts: { publicUrl: string },
): Promise<string | null> {
  const checkout = await getCheckoutByLinkId(db, link.id)
  if (!checkout) return null
  const completed = delivery.type === 'checkout.completed'
  const payment =
    completed && delivery.paymentId ? await getPaymentById(db, delivery.paymentId) : null
  // A completion names its payment; one that is gone leaves nothing true to say.
  if (completed && !payment) return null
  const data = {
    ...toCheckoutObject(checkout, link, opts),
    status: completed ? ('completed' as const) : ('expired' as const),
    payment: payment ? toPaymentObject(payment, opts) : null,
  }
  return JSON.stringify({ type: delivery.type, timestamp, data })
}
