/**
 * Checkout sessions in the database: the link each pays through, the payment that names it and
 * carries its reference, completion by the statement that makes the payment paid (with its
 * checkout.completed event), expiry that waits for a payment in flight, and closing before time.
 */
import { eq } from 'drizzle-orm'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { deliveries, type OutboundEventType } from '../../db/schema.js'
import {
  type CheckoutValues,
  closeCheckout,
  createCheckout,
  expireDueCheckouts,
  getCheckoutById,
  getCheckoutByLinkId,
  listCheckouts,
} from '../../src/data/checkouts.js'
import { getLinkById } from '../../src/data/links.js'
import { applyOutcome, markPending, reservePayment } from '../../src/data/payments.js'
import { createEndpoint } from '../../src/outbound-webhooks/endpoints.js'
import { openTestDb, paymentRequest, T0, type TestDb } from './helpers.js'

let t: TestDb
beforeEach(() => {
  t = openTestDb()
})
afterEach(() => t.cleanup())

const HOUR = 3_600_000

const VALUES: CheckoutValues = {
  amount: 350_000,
  lineItems: [{ name: 'Tajine', quantity: 2, unitPrice: 175_000 }],
  reference: 'CMD-1042',
  metadata: { cart: 'c_77' },
  customerName: 'Amina Benali',
  customerPhone: null,
  customerEmail: null,
  successUrl: 'https://shop.example.dz/merci',
  cancelUrl: 'https://shop.example.dz/panier',
  language: 'fr',
  expiresAt: T0 + HOUR,
  title: 'Commande CMD-1042',
}

async function subscribe(types: OutboundEventType[]) {
  return createEndpoint(
    t.db,
    { url: 'https://hooks.example.dz/in', description: null, eventTypes: types, enabled: true },
    T0,
  )
}

async function pendingPayment(linkId: string, at: number) {
  const link = (await getLinkById(t.db, linkId))!
  const reserved = await reservePayment(t.db, paymentRequest(link, { ref: 'from-query' }), at)
  if (!reserved.ok) throw new Error(`not reserved: ${reserved.reason}`)
  const ids = {
    transactionId: 't1',
    cibTransactionId: `c-${reserved.payment.id}`,
    paymentUrl: 'https://card',
  }
  await markPending(t.db, reserved.payment.id, { ...ids, gatewayResponse: null }, at)
  return reserved.payment
}

describe('checkouts', () => {
  it('pays through a link of its own: one payment at most, expiring with the checkout', async () => {
    const { checkout, link } = await createCheckout(t.db, VALUES, T0, 'key: shop')
    expect(checkout.id).toMatch(/^chk_[0-9A-Za-z]{24}$/)
    expect(checkout).toMatchObject({ status: 'open', linkId: link.id, paymentId: null })
    expect(link).toMatchObject({
      source: 'checkout',
      maxPayments: 1,
      expiresAt: T0 + HOUR,
      amount: 350_000,
      metadata: { cart: 'c_77' },
      createdBy: 'key: shop',
    })
    expect((await getCheckoutByLinkId(t.db, link.id))?.id).toBe(checkout.id)
    expect(await getCheckoutByLinkId(t.db, 'lnk_none')).toBeNull()
  })

  it("gives its payments the checkout's id and the shop's reference as their ref", async () => {
    const { checkout, link } = await createCheckout(t.db, VALUES, T0)
    const payment = await pendingPayment(link.id, T0 + 1)
    expect(payment).toMatchObject({
      checkoutId: checkout.id,
      ref: 'CMD-1042',
      metadata: { cart: 'c_77' },
    })

    const other = await createCheckout(t.db, { ...VALUES, reference: null }, T0)
    const second = await pendingPayment(other.link.id, T0 + 1)
    expect(second).toMatchObject({ checkoutId: other.checkout.id, ref: 'from-query' })
  })

  it('is completed by the write that makes its payment paid, with one checkout.completed event', async () => {
    // Its link reaching its one payment is the checkout's completion, not a link.completed too.
    const endpoint = await subscribe(['checkout.completed', 'payment.paid', 'link.completed'])
    const { checkout, link } = await createCheckout(t.db, VALUES, T0)
    const declined = await pendingPayment(link.id, T0 + 1)
    await applyOutcome(t.db, declined.id, 'failed', {}, T0 + 2, 'webhook')
    expect((await getCheckoutById(t.db, checkout.id))?.status).toBe('open')

    const payment = await pendingPayment(link.id, T0 + 3)
    await applyOutcome(t.db, payment.id, 'paid', {}, T0 + 4, 'webhook')
    expect(await getCheckoutById(t.db, checkout.id)).toMatchObject({
      status: 'completed',
      paymentId: payment.id,
      completedAt: T0 + 4,
      updatedAt: T0 + 4,
    })
    const events = await t.db
      .select()
      .from(deliveries)
      .where(eq(deliveries.endpointId, endpoint.id))
    expect(events.map((d) => [d.type, d.paymentId, d.linkId, d.occurredAt])).toEqual(
      expect.arrayContaining([
        ['payment.paid', payment.id, link.id, T0 + 4],
        ['checkout.completed', payment.id, link.id, T0 + 4],
      ]),
    )
    expect(events).toHaveLength(2)

    // The declined payment turning paid late is money taken beyond the one place: the checkout
    // stays completed by the first, and says so once.
    await applyOutcome(t.db, declined.id, 'paid', {}, T0 + 5, 'reconciler')
    expect((await getCheckoutById(t.db, checkout.id))?.paymentId).toBe(payment.id)
    const completed = await t.db
      .select()
      .from(deliveries)
      .where(eq(deliveries.type, 'checkout.completed'))
    expect(completed).toHaveLength(1)
  })

  it('expires past its time only once no payment is in flight, with one checkout.expired event', async () => {
    await subscribe(['checkout.expired'])
    const idle = await createCheckout(t.db, VALUES, T0)
    const busy = await createCheckout(t.db, VALUES, T0)
    const later = await createCheckout(t.db, { ...VALUES, expiresAt: T0 + 2 * HOUR }, T0)
    const onCardPage = await pendingPayment(busy.link.id, T0 + 1)

    const expired = await expireDueCheckouts(t.db, T0 + HOUR)
    expect(expired.map((c) => c.id)).toEqual([idle.checkout.id])
    expect((await getCheckoutById(t.db, busy.checkout.id))?.status).toBe('open')
    expect((await getCheckoutById(t.db, later.checkout.id))?.status).toBe('open')

    await applyOutcome(t.db, onCardPage.id, 'failed', {}, T0 + HOUR + 1, 'webhook')
    expect((await expireDueCheckouts(t.db, T0 + HOUR + 2)).map((c) => c.id)).toEqual([
      busy.checkout.id,
    ])
    expect(await expireDueCheckouts(t.db, T0 + HOUR + 3)).toEqual([])
    const events = await t.db
      .select()
      .from(deliveries)
      .where(eq(deliveries.type, 'checkout.expired'))
    expect(events.map((d) => [d.linkId, d.paymentId, d.occurredAt])).toEqual([
      [idle.link.id, null, T0 + HOUR],
      [busy.link.id, null, T0 + HOUR + 2],
    ])
  })

  it('expires the checkouts that can close even when a whole batch ahead of them is being paid', async () => {
    const busy = await createCheckout(t.db, VALUES, T0)
    await pendingPayment(busy.link.id, T0 + 1)
    const idle = await createCheckout(t.db, VALUES, T0 + 2)
    const expired = await expireDueCheckouts(t.db, T0 + HOUR, 1)
    expect(expired.map((c) => c.id)).toEqual([idle.checkout.id])
  })

  it('closes before its time: expired, its link expires in the same write; canceled switches it off', async () => {
    const first = await createCheckout(t.db, VALUES, T0)
    const closed = await closeCheckout(t.db, first.checkout.id, 'expired', T0 + 10)
    expect(closed).toMatchObject({ status: 'expired', updatedAt: T0 + 10 })
    expect((await getLinkById(t.db, first.link.id))?.expiresAt).toBe(T0 + 10)
    const refused = await reservePayment(t.db, paymentRequest(first.link), T0 + 11)
    expect(refused).toMatchObject({ ok: false, reason: 'expired' })
    expect(await closeCheckout(t.db, first.checkout.id, 'expired', T0 + 12)).toBeNull()

    const second = await createCheckout(t.db, VALUES, T0)
    expect((await closeCheckout(t.db, second.checkout.id, 'canceled', T0 + 10))?.status).toBe(
      'canceled',
    )
    expect((await getLinkById(t.db, second.link.id))?.active).toBe(false)

    const third = await createCheckout(t.db, VALUES, T0)
    await pendingPayment(third.link.id, T0 + 1)
    expect(await closeCheckout(t.db, third.checkout.id, 'expired', T0 + 10)).toBeNull()
  })

  it('lists newest first, by status and by reference, page by page', async () => {
    const made = []
    for (let i = 0; i < 5; i++)
      made.push(
        (await createCheckout(t.db, { ...VALUES, reference: i % 2 ? 'odd' : 'even' }, T0 + i))
          .checkout,
      )
    await closeCheckout(t.db, made[0]!.id, 'expired', T0 + 10)
    const first = await listCheckouts(t.db, { limit: 2 })
    expect(first.items.map((c) => c.id)).toEqual([made[4]!.id, made[3]!.id])
    const { decodeCursor } = await import('../../src/data/paging.js')
    const next = await listCheckouts(t.db, { limit: 2, cursor: decodeCursor(first.nextCursor!)! })
    expect(next.items.map((c) => c.id)).toEqual([made[2]!.id, made[1]!.id])
    const odd = await listCheckouts(t.db, { reference: 'odd' })
    expect(odd.items.map((c) => c.id)).toEqual([made[3]!.id, made[1]!.id])
    const expired = await listCheckouts(t.db, { status: 'expired' })
    expect(expired.items.map((c) => c.id)).toEqual([made[0]!.id])
  })
})
