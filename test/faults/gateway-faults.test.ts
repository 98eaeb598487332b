/**
 * The gateway failing every way the simulator can — a 500 or 503, a hang, malformed JSON,
 * slowness past the time-out, a late, missing, duplicated or reordered webhook — at each place
 * Paylinks calls it: the customer always gets a page (never a 500), and once the gateway is back
 * every payment ends as the gateway knows it. Real loopback HTTP between Paylinks and the
 * simulator; the gateway client waits 300 ms per call and does not sleep between retries.
 */
import { afterEach, describe, expect, it } from 'vitest'
import type { PaymentStatus } from '../../db/schema.js'
import { reconcile } from '../../src/payments/reconcile.js'
import type { CardOutcome, CardTransaction, EndpointFault } from '../../src/simulator/index.js'
import { pathOf } from '../flows/support.js'
import { type Paylinks, startPaylinks, TEST_ADMIN_TOKEN } from '../support/harness.js'
import { makeLink } from '../support/links.js'
import {
  auditStatusChanges,
  EXPECTED_STATUS,
  fastRetryingGateway,
  formToken,
  postCheckout,
  receiptIdOf,
} from './support.js'

const FAULTS: [string, EndpointFault][] = [
  ['a 500', { status5xx: 500 }],
  ['a 503', { status5xx: 503 }],
  ['a hang', { hang: true }],
  ['malformed JSON', { malformedJson: true }],
  ['slowness past the time-out', { latencyMs: 1500 }],
]

let p: Paylinks | undefined
let now = Date.now()
/** Webhook deliveries the simulator put off (late ones, retries), run when the test says. */
let later: (() => Promise<void>)[] = []

afterEach(async () => {
  await p?.close()
  p = undefined
})

async function start(): Promise<Paylinks> {
  now = Date.now()
  later = []
  p = await startPaylinks({
    http: true,
    clock: () => now,
    gatewayTimeoutMs: 300,
    simulator: {
      hangCapMs: 2000,
      schedule: (_delay, task) => {
        later.push(task)
      },
    },
  })
  fastRetryingGateway(p, 300)
  return p
}

function statusOf(paylinks: Paylinks, receiptId: string): PaymentStatus | undefined {
  const row = paylinks.sqlite.sqlite
    .prepare('SELECT status FROM payments WHERE receipt_id = ?')
    .get(receiptId) as { status: PaymentStatus } | undefined
  return row?.status
}

/** A customer-facing answer: an HTML page, never a 5xx other than the gateway-error page. */
async function expectPage(res: Response, status: number) {
  expect(res.status).toBe(status)
  expect(res.headers.get('content-type')).toContain('text/html')
  return res.text()
}

/** Starts `count` payments on a new link; answers the simulator's transactions. */
async function startPayments(paylinks: Paylinks, count: number): Promise<CardTransaction[]> {
  const link = await makeLink(paylinks, { title: 'Faults', amount: 1200, language: 'en' })
  const csrf = await formToken(paylinks, link.slug)
  const before = paylinks.simulator.state.transactions.size
  for (let i = 0; i < count; i++)
    expect((await postCheckout(paylinks, link.slug, csrf, i)).status).toBe(303)
  return [...paylinks.simulator.state.transactions.values()].slice(before)
}

/** Every transaction the gateway holds has its payment row. */
function expectNothingLost(paylinks: Paylinks) {
  const missing = [...paylinks.simulator.state.transactions.values()].filter(
    (tx) => statusOf(paylinks, receiptIdOf(tx.returnUrl)) === undefined,
  )
  expect(missing).toEqual([])
}

describe('the gateway failing at card creation', () => {
  it.each(FAULTS)(
    'answers %s with the retry page, records an error, and the retry pays once the gateway is back',
    async (_, fault) => {
      const paylinks = await start()
      const link = await makeLink(paylinks, { title: 'Creation', amount: 800, language: 'en' })
      const csrf = await formToken(paylinks, link.slug)
      paylinks.simulator.faults.set({ endpoints: { 'make-cib-transaction': fault } })
      const html = await expectPage(await postCheckout(paylinks, link.slug, csrf, 1), 502)
      const rows = paylinks.sqlite.sqlite.prepare('SELECT status, receipt_id FROM payments').all()
      expect(rows).toEqual([{ status: 'error', receipt_id: expect.any(String) }])
      // Try again opens the checkout filled from the payment that erred.
      const receiptId = (rows as { receipt_id: string }[])[0]?.receipt_id
      expect(html).toContain(`href="/l/${link.slug}?lang=en&amp;retry=${receiptId}"`)
      paylinks.simulator.faults.clear()
      const retried = await postCheckout(paylinks, link.slug, csrf, 2)
      expect(retried.status).toBe(303)
      await paylinks.settle()
      expectNothingLost(paylinks)
    },
  )
})

describe('the gateway failing when a merchant creates an invoice link', () => {
  it.each(FAULTS)('answers %s with a 502 gateway_error and stores no link', async (_, fault) => {
    const paylinks = await start()
    paylinks.simulator.faults.set({ endpoints: { 'invoices/create': fault } })
    const res = await paylinks.app.request('/api/v1/links', {
      method: 'POST',
      body: JSON.stringify({
        title: 'Invoice',
        invoice_items: [{ description: 'Carton', quantity: 2, unit_price: 750 }],
      }),
      headers: { 'content-type': 'application/json', 'x-api-key': TEST_ADMIN_TOKEN },
    })
    expect(res.status).toBe(502)
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('gateway_error')
    expect(paylinks.sqlite.sqlite.prepare('SELECT count(*) AS n FROM links').get()).toEqual({
      n: 0,
    })
  })
})

describe('the check endpoint failing when the customer comes back', () => {
  it.each(FAULTS)(
    'shows the "being confirmed" page on %s, and the receipt once the check answers',
    async (_, fault) => {
      const paylinks = await start()
      paylinks.simulator.faults.set({ webhooks: { never: true } })
      const [tx] = await startPayments(paylinks, 1)
      await paylinks.simulator.completePayment(tx!.orderId, 'approved')
      paylinks.simulator.faults.set({ endpoints: { 'cib-transaction-check': fault } })
      const back = pathOf(tx!.returnRedirect!)
      const waiting = await expectPage(await paylinks.app.request(back), 200)
      expect(waiting).toContain('Confirming your payment')
      expect(statusOf(paylinks, receiptIdOf(tx!.returnUrl))).toBe('pending')
      paylinks.simulator.faults.clear()
      const again = await expectPage(await paylinks.app.request(back), 200)
      expect(statusOf(paylinks, receiptIdOf(tx!.returnUrl))).toBe('paid')
      expect(again).toContain(tx!.approvalCode!)
      expectNothingLost(paylinks)
    },
  )
})

describe('the check endpoint failing behind a webhook', () => {
  it.each(FAULTS)(
    'acknowledges the webhook on %s, keeps it retryable, and the reconciler settles later',
    async (_, fault) => {
      const paylinks = await start()
      const changes = auditStatusChanges(paylinks.sqlite.sqlite)
      const [tx] = await startPayments(paylinks, 1)
      paylinks.simulator.faults.set({ endpoints: { 'cib-transaction-check': fault } })
      await paylinks.simulator.completePayment(tx!.orderId, 'declined')
      await paylinks.settle()
      const delivery = [...paylinks.simulator.state.deliveries.values()][0]!
      expect(delivery.state).toBe('delivered')
      const event = paylinks.sqlite.sqlite.prepare('SELECT status FROM webhook_events').get()
      expect(event).toEqual({ status: 'failed' })
      expect(statusOf(paylinks, receiptIdOf(tx!.returnUrl))).toBe('pending')

      paylinks.simulator.faults.clear()
      now += 2 * 60_000
      // The failed delivery is processed again once its backoff is over: its confirmation
      // settles the payment, which then needs no check of its own.
      expect(await reconcile(paylinks.deps)).toEqual({ checked: 0, settled: 1, replayed: 1 })
      const processed = paylinks.sqlite.sqlite.prepare('SELECT status FROM webhook_events').get()
      expect(processed).toEqual({ status: 'processed' })
      expect(statusOf(paylinks, receiptIdOf(tx!.returnUrl))).toBe('failed')
      expect(changes().map((c) => c.new)).toEqual(['pending', 'failed'])
      expectNothingLost(paylinks)
    },
  )
})

describe('webhooks that come late, never, twice or out of order', () => {
  it('settles through the reconciler when the webhook is late, and the late one changes nothing', async () => {
    const paylinks = await start()
    const changes = auditStatusChanges(paylinks.sqlite.sqlite)
    paylinks.simulator.faults.set({ webhooks: { lateMs: 10 * 60_000 } })
    const [tx] = await startPayments(paylinks, 1)
    await paylinks.simulator.completePayment(tx!.orderId, 'approved')
    await paylinks.settle()
    expect(later).toHaveLength(1)
    expect(statusOf(paylinks, receiptIdOf(tx!.returnUrl))).toBe('pending')
    now += 2 * 60_000
    expect(await reconcile(paylinks.deps)).toEqual({ checked: 1, settled: 1, replayed: 0 })
    for (const task of later.splice(0)) await task()
    await paylinks.settle()
    expect(statusOf(paylinks, receiptIdOf(tx!.returnUrl))).toBe('paid')
    expect(changes().map((c) => c.new)).toEqual(['pending', 'paid'])
  })

  it('settles a late webhook that arrives while the check is down, once a redelivery or the reconciler can check', async () => {
    const paylinks = await start()
    paylinks.simulator.faults.set({ webhooks: { lateMs: 60_000 } })
    const [tx] = await startPayments(paylinks, 1)
    await paylinks.simulator.completePayment(tx!.orderId, 'canceled')
    paylinks.simulator.faults.set({ endpoints: { 'cib-transaction-check': { status5xx: 502 } } })
    for (const task of later.splice(0)) await task()
    await paylinks.settle()
    expect(statusOf(paylinks, receiptIdOf(tx!.returnUrl))).toBe('pending')
    paylinks.simulator.faults.clear()
    // The same event again (the gateway retries, or it is replayed): processed this time.
    const delivery = [...paylinks.simulator.state.deliveries.values()][0]!
    const res = await paylinks.app.request('/webhooks/gateway', {
      method: 'POST',
      body: JSON.stringify(delivery.payload),
      headers: { 'content-type': 'application/json' },
    })
    expect(res.status).toBe(200)
    await paylinks.settle()
    expect(statusOf(paylinks, receiptIdOf(tx!.returnUrl))).toBe('canceled')
  })

  it('settles every payment through the reconciler alone when no webhook ever comes', async () => {
    const paylinks = await start()
    paylinks.simulator.faults.set({ webhooks: { never: true } })
    const outcomes: CardOutcome[] = ['approved', 'declined', 'canceled', 'session_expired']
    const txs = await startPayments(paylinks, outcomes.length)
    for (const [i, tx] of txs.entries())
      await paylinks.simulator.completePayment(tx.orderId, outcomes[i]!)
    now += 2 * 60_000
    expect(await reconcile(paylinks.deps)).toEqual({ checked: 4, settled: 4, replayed: 0 })
    for (const [i, tx] of txs.entries())
      expect(statusOf(paylinks, receiptIdOf(tx.returnUrl))).toBe(EXPECTED_STATUS[outcomes[i]!])
  })

  it('changes each payment once when the simulator duplicates and reorders its webhooks', async () => {
    const paylinks = await start()
    const changes = auditStatusChanges(paylinks.sqlite.sqlite)
    const outcomes: CardOutcome[] = ['approved', 'declined', 'approved', 'canceled', 'expired_card']
    const txs = await startPayments(paylinks, outcomes.length)
    paylinks.simulator.faults.set({ webhooks: { duplicate: true, outOfOrder: 3 } })
    for (const [i, tx] of txs.entries())
      await paylinks.simulator.completePayment(tx.orderId, outcomes[i]!)
    await paylinks.settle()
    expect(paylinks.simulator.state.deliveries.size).toBe(2 * outcomes.length)
    for (const [i, tx] of txs.entries())
      expect(statusOf(paylinks, receiptIdOf(tx.returnUrl))).toBe(EXPECTED_STATUS[outcomes[i]!])
    expect(changes().filter((c) => c.old === 'pending')).toHaveLength(outcomes.length)
  })
})
