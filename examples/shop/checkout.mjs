/**
 * Everything the shop asks of Paylinks, through the merchant SDK (`paylinks/merchant`): a
 * checkout per order, and the verification of the events Paylinks sends back.
 */
import { Paylinks } from 'paylinks/merchant'

/** How long a checkout stays open (the API's default, said out loud: db.mjs relies on it). */
export const CHECKOUT_SECONDS = 30 * 60

export const connect = ({ url, apiKey }) => new Paylinks({ url, apiKey })

/**
 * The checkout of an order. The Idempotency-Key is the order's own id, so a "Pay" sent twice
 * (a double click, a retry after a time-out, a lost answer) gets the first answer back from
 * Paylinks — the same checkout — instead of a second one. The body must be the same each time
 * (Paylinks answers 422 to the same key with another body): it is built from the stored order
 * alone.
 */
export function checkoutForOrder(paylinks, order, shopUrl) {
  return paylinks.checkouts.create(
    {
      reference: order.id,
      metadata: { order_id: order.id },
      line_items: order.items.map((item) => ({
        name: item.name,
        quantity: item.quantity,
        unit_price: item.unit_price / 100, // centimes to DZD
      })),
      success_url: `${shopUrl}/thanks`, // Paylinks adds ?checkout_id=chk_…
      cancel_url: `${shopUrl}/cart`,
      language: order.language,
      expires_in: CHECKOUT_SECONDS,
    },
    { idempotencyKey: `order-${order.id}` },
  )
}

/** The checkout, read back (to say which order a return from Paylinks is about). */
export const retrieveCheckout = (paylinks, id) => paylinks.checkouts.retrieve(id)

/**
 * The event, if the request really comes from Paylinks (signature and timestamp checked against
 * the endpoint's secret); throws otherwise. `body` is the raw body, exactly as received.
 */
export const verifyEvent = (body, headers, secret) =>
  Paylinks.webhooks.verify(body, headers, secret)
