/**
 * The crash window between the gateway creating a card transaction and Paylinks storing its ids:
 * the payment row stays `initiated` (and the reconciler later makes it `error`), yet the customer
 * may be on the card page. When the transaction's return or webhook arrives, Paylinks adopts it —
 * only once the check endpoint vouches for the payment's amount and the merchant's account.
 * Real SQLite file, the simulator in process; the crash is the checkout's first two steps
 * (reserve, then create at the gateway) without the third (markPending).
 */
import { eq } from 'drizzle-orm'
import { afterEach, describe, expect, it } from 'vitest'
import { type Link, webhookEvents } from '../../db/schema.js'
import { getPaymentById, reservePayment } from '../../src/data/payments.js'
import { INITIATED_TIMEOUT_MS } from '../../src/domain/check-schedule.js'
import { gatewayReturnUrl } from '../../src/domain/return-url.js'
import { centimesToDzdShort } from '../../src/lib/money.js'
import { reconcile } from '../../src/payments/reconcile.js'
import { SIMULATOR_SERVICE_ACCOUNT } from '../../src/simulator/index.js'
import { api } from '../api/helpers.js'
import { signedIn } from '../dashboard/helpers.js'
import { pathOf, startPayment } from '../flows/support.js'
import { type Inbox, startInbox } from '../mail/support.js'
import { type Paylinks, startPaylinks } from '../support/harness.js'
import { makeLink } from '../support/links.js'

let p: Paylinks | undefined
afterEach(async () => {
  await p?.close()
  p = undefined
})

async function start(now: { t: number }) {
  p = await startPaylinks({ clock: () => now.t })
  return p
}

/** What a checkout leaves when the process dies right after the gateway created the transaction. */
async function crashAfterCreate(
  paylinks: Paylinks,
  link: Link,
  options: { amount?: number; account?: string } = {},
) {
  const amount = options.amount ?? link.amount ?? 100_000
  const reserved = await reservePayment(
    paylinks.deps.db,
    {
      linkId: link.id,
      amount,
      customerName: 'Amina Benali',
      customerPhone: '0550123456',
      customerEmail: 'amina@example.dz',
      language: 'en',
    },
    paylinks.deps.clock(),
  )
  if (!reserved.ok) throw new Error(`not reserved: ${reserved.reason}`)
  const payment = reserved.payment
  const created = await paylinks.deps.gateway.card.create({
    account: options.account ?? paylinks.deps.merchantAccount,
    amount: centimesToDzdShort(amount),
    full_name: 'Amina Benali',
    phone: '+213550123456',
    email: 'amina@example.dz',
    return_url: gatewayReturnUrl(paylinks.url, payment.receiptId),
    webhook_url: `${paylinks.url}/webhooks/gateway`,
    language: 'en',
    memo: 'Crash',
    keep_return_url: true,
  })
  const tx = paylinks.simulator.state.transactions.get(
    paylinks.simulator.state.byCibId.get(created.cib_transaction_id) ?? '',
  )
  if (!tx) throw new Error('no simulator transaction')
  return { payment, tx }
}

function inboxRows(paylinks: Paylinks, cib: string) {
  return paylinks.deps.db
    .select()
    .from(webhookEvents)
    .where(eq(webhookEvents.cibTransactionId, cib))
}

describe('a card transaction created just before a crash', () => {
  it('is adopted and paid when the customer comes back from the card page', async () => {
    const now = { t: Date.UTC(2026, 5, 1, 10, 0, 0) }
    const paylinks = await start(now)
    paylinks.simulator.faults.set({ webhooks: { never: true } })
    const link = await makeLink(paylinks, { title: 'Crash', amount: 1500, language: 'en' })
    const { payment, tx } = await crashAfterCreate(paylinks, link)
    expect((await getPaymentById(paylinks.deps.db, payment.id))?.cibTransactionId).toBeNull()

    await paylinks.simulator.completePayment(tx.cibTransactionId, 'approved')
    now.t += 60_000
    const res = await paylinks.app.request(pathOf(tx.returnRedirect ?? ''))
    expect(res.status).toBe(200)
    expect(await res.text()).toContain('Payment successful')
    expect(await getPaymentById(paylinks.deps.db, payment.id)).toMatchObject({
      status: 'paid',
      cibTransactionId: tx.cibTransactionId,
      transactionId: tx.transactionId,
      beyondMaxPayments: false,
    })
  })

  it('is adopted and paid from its signed webhook after the reconciler gave the payment up', async () => {
    const now = { t: Date.UTC(2026, 5, 1, 10, 0, 0) }
    const paylinks = await start(now)
    const link = await makeLink(paylinks, { title: 'Crash', amount: 1500, language: 'en' })
    const { payment, tx } = await crashAfterCreate(paylinks, link)
    now.t += INITIATED_TIMEOUT_MS + 1000
    await reconcile(paylinks.deps)
    expect(await getPaymentById(paylinks.deps.db, payment.id)).toMatchObject({
      status: 'error',
      errorReason: 'gateway_timeout',
    })

    await paylinks.simulator.completePayment(tx.cibTransactionId, 'approved')
    await paylinks.settle()
    expect(await getPaymentById(paylinks.deps.db, payment.id)).toMatchObject({
      status: 'paid',
      cibTransactionId: tx.cibTransactionId,
      errorReason: null,
    })
    const rows = await inboxRows(paylinks, tx.cibTransactionId)
    expect(rows).toMatchObject([{ status: 'processed', paymentId: payment.id }])
    const delivery = [...paylinks.simulator.state.deliveries.values()].find(
      (d) => d.cibTransactionId === tx.cibTransactionId,
    )
    expect(delivery?.attempts.at(-1)).toMatchObject({ status: 200 })
  })

  it('shows the order id and number the check gave on its receipt page and in its receipt e-mail', async () => {
    const now = { t: Date.UTC(2026, 5, 1, 10, 0, 0) }
    const inbox: Inbox = await startInbox()
    try {
      p = await startPaylinks({
        clock: () => now.t,
        env: { SMTP_URL: inbox.url, MAIL_FROM: 'Boutique Test <receipts@boutique.test>' },
      })
      const paylinks = p
      const link = await makeLink(paylinks, { title: 'Crash', amount: 1500, language: 'en' })
      const { payment, tx } = await crashAfterCreate(paylinks, link)
      now.t += INITIATED_TIMEOUT_MS + 1000
      await reconcile(paylinks.deps)
      await paylinks.simulator.completePayment(tx.cibTransactionId, 'approved')
      await paylinks.settle()
      expect(await getPaymentById(paylinks.deps.db, payment.id)).toMatchObject({
        status: 'paid',
        orderId: tx.orderId,
        orderNumber: tx.cibTransactionId,
      })
      const page = await (await paylinks.app.request(`/r/${payment.receiptId}?lang=en`)).text()
      expect(page).toMatch(new RegExp(`Order ID.*?${tx.orderId}`, 's'))
      expect(page).toMatch(new RegExp(`Order number.*?${tx.cibTransactionId}`, 's'))
      await paylinks.deps.outbound.run()
      const receipt = inbox.received.find(
        (m) => m.to && 'text' in m.to && m.to.text === 'amina@example.dz',
      )
      expect(receipt?.text).toContain(tx.orderId)
      expect(receipt?.text).toContain(tx.cibTransactionId)
    } finally {
      await p?.close()
      p = undefined
      await inbox.close()
    }
  })

  it('is not adopted from a return naming a transaction of another amount or account', async () => {
    const now = { t: Date.UTC(2026, 5, 1, 10, 0, 0) }
    const paylinks = await start(now)
    paylinks.simulator.faults.set({ webhooks: { never: true } })
    const link = await makeLink(paylinks, { title: 'Crash', amount: 1500, language: 'en' })
    const { payment } = await crashAfterCreate(paylinks, link)
    // Someone else's approved transactions, never stored on any payment: 2000 DZD to this
    // merchant, and 1500 DZD to another account.
    const other = await makeLink(paylinks, { title: 'Other', amount: 2000, language: 'en' })
    const dearer = (await crashAfterCreate(paylinks, other)).tx
    const elsewhere = (
      await crashAfterCreate(paylinks, link, { account: SIMULATOR_SERVICE_ACCOUNT })
    ).tx
    for (const tx of [dearer, elsewhere]) {
      await paylinks.simulator.completePayment(tx.cibTransactionId, 'approved')
      const query = new URLSearchParams({
        payment_status: 'success',
        transaction_id: tx.transactionId,
        cib_transaction_id: tx.cibTransactionId,
      })
      const res = await paylinks.app.request(`/r/${payment.receiptId}?${query}`)
      expect(res.status).toBe(200)
      expect(await res.text()).not.toContain('Payment successful')
      const row = await getPaymentById(paylinks.deps.db, payment.id)
      expect(row).toMatchObject({ status: 'initiated', cibTransactionId: null })
    }
    // Junk in the query is no transaction id at all: never sent to the gateway, never a 500.
    const junk = await paylinks.app.request(
      `/r/${payment.receiptId}?cib_transaction_id=${'9'.repeat(5000)}&transaction_id=%00`,
    )
    expect(junk.status).toBe(200)
  })

  it('is not adopted from a signed webhook whose message names another payment of another amount', async () => {
    const now = { t: Date.UTC(2026, 5, 1, 10, 0, 0) }
    const paylinks = await start(now)
    paylinks.simulator.faults.set({ webhooks: { never: true } })
    const cheap = await makeLink(paylinks, { title: 'Cheap', amount: 1500, language: 'en' })
    const dear = await makeLink(paylinks, { title: 'Dear', amount: 2000, language: 'en' })
    const victim = await crashAfterCreate(paylinks, cheap)
    const mine = await crashAfterCreate(paylinks, dear)
    await paylinks.simulator.completePayment(mine.tx.cibTransactionId, 'approved')
    await paylinks.simulator.completePayment(victim.tx.cibTransactionId, 'declined')
    // The victim's signed (declined) delivery, retargeted at my approved transaction.
    const delivery = [...paylinks.simulator.state.deliveries.values()].find(
      (d) => d.cibTransactionId === victim.tx.cibTransactionId,
    )
    const body = JSON.stringify({
      ...delivery!.payload,
      cib_transaction_id: mine.tx.cibTransactionId,
      payment_status: 'success',
    })
    const res = await paylinks.app.request('/webhooks/gateway', {
      method: 'POST',
      body,
      headers: { 'content-type': 'application/json' },
    })
    expect(res.status).toBe(200)
    await paylinks.settle()
    expect(await getPaymentById(paylinks.deps.db, victim.payment.id)).toMatchObject({
      status: 'initiated',
      cibTransactionId: null,
    })
    expect(await inboxRows(paylinks, mine.tx.cibTransactionId)).toMatchObject([
      { status: 'ignored' },
    ])
  })

  it('is recorded paid and flagged, in the API and the dashboard, when the link filled meanwhile', async () => {
    const now = { t: Date.UTC(2026, 5, 1, 10, 0, 0) }
    const paylinks = await start(now)
    const link = await makeLink(paylinks, {
      title: 'Single seat',
      amount: 1500,
      language: 'en',
      max_payments: 1,
    })
    const late = await crashAfterCreate(paylinks, link)
    // The reconciler gives the crashed payment up, and its place back.
    now.t += INITIATED_TIMEOUT_MS + 1000
    await reconcile(paylinks.deps)
    // Another customer takes the place and pays: the link is full.
    const other = await startPayment(paylinks, link.slug)
    await paylinks.simulator.completePayment(other.tx.cibTransactionId, 'approved')
    await paylinks.settle()
    expect(await getPaymentById(paylinks.deps.db, other.payment.id)).toMatchObject({
      status: 'paid',
      beyondMaxPayments: false,
    })

    // The first customer had paid on the card page all along: the money was taken.
    await paylinks.simulator.completePayment(late.tx.cibTransactionId, 'approved')
    await paylinks.settle()
    expect(await getPaymentById(paylinks.deps.db, late.payment.id)).toMatchObject({
      status: 'paid',
      beyondMaxPayments: true,
    })

    const flagged = await api(paylinks, 'GET', `/api/v1/payments/${late.payment.id}`)
    expect(flagged.body).toMatchObject({ status: 'paid', beyond_max_payments: true })
    const normal = await api(paylinks, 'GET', `/api/v1/payments/${other.payment.id}`)
    expect(normal.body).toMatchObject({ status: 'paid', beyond_max_payments: false })

    const browser = await signedIn(paylinks)
    const list = await (await browser.get('/dashboard/payments')).text()
    const row = (id: string) =>
      new RegExp(`<tr data-payment-id="${id}">.*?</tr>`, 's').exec(list)?.[0]
    expect(row(late.payment.id)).toContain('data-flag="beyond-max-payments"')
    expect(row(late.payment.id)).toContain('Beyond the link’s limit')
    expect(row(other.payment.id)).not.toContain('data-flag')
    const detail = await (await browser.get(`/dashboard/links/${link.id}`)).text()
    expect(detail).toMatch(/data-flag="beyond-max-payments"><span class="badge beyond">1<\/span>/)
    const fr = await (await browser.get('/dashboard/payments', { 'accept-language': 'fr' })).text()
    expect(fr).toContain('Au-delà de la limite du lien')
  })
})
