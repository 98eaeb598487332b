/**
 * The reconciler finishing acknowledged webhooks (src/payments/inbox-replay.ts): deliveries
 * answered 2xx whose background work a dead process never did — modelled by a background that
 * drops its tasks — are confirmed or adopted by `reconcile`, on a real SQLite file with the real
 * simulator in process and a clock the test moves.
 */
import { asc, eq } from 'drizzle-orm'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { paymentEvents, webhookEvents } from '../../db/schema.js'
import type { Background } from '../../src/background.js'
import { getPaymentById, markError, reservePayment } from '../../src/data/payments.js'
import {
  INBOX_MAX_ATTEMPTS,
  INBOX_REPLAY_GRACE_MS,
  INBOX_RETRY_DELAYS_MS,
} from '../../src/domain/check-schedule.js'
import { gatewayReturnUrl } from '../../src/domain/return-url.js'
import { centimesToDzdShort } from '../../src/lib/money.js'
import { adoptOnReturn } from '../../src/payments/adopt.js'
import { reconcile } from '../../src/payments/reconcile.js'
import { receiveWebhook } from '../../src/payments/webhook.js'
import { SIMULATOR_MERCHANT_ACCOUNT } from '../../src/simulator/index.js'
import { paymentRequest } from '../data/helpers.js'
import { openPaymentCore, type PaymentCore } from './support.js'

let core: PaymentCore
beforeEach(() => {
  core = openPaymentCore()
})
afterEach(() => {
  core.close()
})

/** The background of a process killed right after answering: its tasks never run. */
const killed: Background = { run() {}, later() {}, idle: async () => {}, stop() {} }

function inbox() {
  return core.db.db.select().from(webhookEvents).all()
}

function events(paymentId: string) {
  return core.db.db
    .select()
    .from(paymentEvents)
    .where(eq(paymentEvents.paymentId, paymentId))
    .orderBy(asc(paymentEvents.id))
    .all()
}

/** The simulator's latest delivery, once the customer has finished on the card page. */
async function lastDelivery(): Promise<string> {
  await core.simulator.flush()
  const raw = core.deliveries.at(-1)
  if (!raw) throw new Error('the simulator sent no webhook')
  return raw
}

/** A payment the customer has just paid (the gateway knows, Paylinks not yet), and its delivery. */
async function paidAtGateway() {
  const payment = await core.pay(await core.link())
  await core.simulator.completePayment(payment.cibTransactionId!, 'approved')
  return { payment, raw: await lastDelivery() }
}

/**
 * A checkout whose creation answer was cut: the gateway created the transaction (its return URL
 * naming the receipt), Paylinks never stored its ids and made the payment `error`.
 */
async function cutAtCreation() {
  const link = await core.link()
  const reserved = await reservePayment(core.deps.db, paymentRequest(link), core.time.clock())
  if (!reserved.ok) throw new Error(reserved.reason)
  const payment = reserved.payment
  const created = await core.deps.gateway.card.create({
    account: SIMULATOR_MERCHANT_ACCOUNT,
    amount: centimesToDzdShort(payment.amount),
    full_name: 'Amina Benali',
    phone: '+213550123456',
    email: 'amina@example.dz',
    return_url: gatewayReturnUrl('http://paylinks.test', payment.receiptId),
    webhook_url: 'http://paylinks.test/webhooks/gateway',
    language: 'fr',
    memo: 'Cut',
    keep_return_url: true,
  })
  await markError(core.deps.db, payment.id, 'the answer was cut', core.time.clock(), 'checkout')
  const tx = core.simulator.state.transactions.get(
    core.simulator.state.byCibId.get(created.cib_transaction_id) ?? '',
  )
  if (!tx) throw new Error('no simulator transaction')
  return { payment, tx }
}

describe('the reconciler and the webhook inbox', () => {
  it('confirms a delivery whose confirmation died with the process, once the grace period is over', async () => {
    const { payment, raw } = await paidAtGateway()
    expect(await receiveWebhook(core.deps, killed, raw)).toEqual({
      status: 200,
      body: { received: true },
    })
    expect(inbox()).toMatchObject([{ status: 'received', attempts: 0 }])
    core.time.advance(INBOX_REPLAY_GRACE_MS - 1000)
    expect(await reconcile(core.deps)).toMatchObject({ replayed: 0 })
    expect(core.checks()).toBe(0)
    core.time.advance(1000)
    // Settled by the replay, so not checked again as a due payment in the same run.
    expect(await reconcile(core.deps)).toEqual({ checked: 0, settled: 1, replayed: 1 })
    expect(inbox()).toMatchObject([{ status: 'processed', paymentId: payment.id, attempts: 1 }])
    expect(await getPaymentById(core.deps.db, payment.id)).toMatchObject({ status: 'paid' })
    expect(events(payment.id).at(-1)).toMatchObject({ toStatus: 'paid', cause: 'reconciler' })
    // Finished: never taken again.
    core.time.advance(24 * 3_600_000)
    expect(await reconcile(core.deps)).toMatchObject({ replayed: 0 })
    expect(core.checks()).toBe(1)
  })

  it('at a start, finishes at once every delivery recorded before it', async () => {
    const { payment, raw } = await paidAtGateway()
    await receiveWebhook(core.deps, killed, raw)
    core.time.advance(2000)
    const result = await reconcile(core.deps, 50, { receivedBy: core.time.clock() })
    expect(result).toMatchObject({ replayed: 1 })
    expect(inbox()).toMatchObject([{ status: 'processed' }])
    expect(await getPaymentById(core.deps.db, payment.id)).toMatchObject({ status: 'paid' })
  })

  it('retries a failed delivery after its backoff and processes it once the gateway answers', async () => {
    const { payment, raw } = await paidAtGateway()
    core.simulator.faults.set({ endpoints: { 'cib-transaction-check': { status5xx: 503 } } })
    await receiveWebhook(core.deps, core.background, raw)
    await core.background.idle()
    expect(inbox()).toMatchObject([{ status: 'failed', attempts: 1 }])
    const checks = core.checks()
    // Not before its first retry delay, whatever the number of runs.
    core.time.advance(INBOX_RETRY_DELAYS_MS[0]! - 1)
    expect(await reconcile(core.deps)).toMatchObject({ replayed: 0 })
    expect(core.checks()).toBe(checks)
    core.time.advance(1)
    expect(await reconcile(core.deps)).toMatchObject({ replayed: 1 })
    expect(inbox()).toMatchObject([{ status: 'failed', attempts: 2 }])
    core.simulator.faults.clear()
    core.time.advance(INBOX_RETRY_DELAYS_MS[1]!)
    await reconcile(core.deps)
    expect(inbox()).toMatchObject([{ status: 'processed', attempts: 3, lastError: null }])
    expect(await getPaymentById(core.deps.db, payment.id)).toMatchObject({ status: 'paid' })
  })

  it('gives a delivery the gateway never confirms up after a bounded number of attempts', async () => {
    const { raw } = await paidAtGateway()
    core.simulator.faults.set({ endpoints: { 'cib-transaction-check': { status5xx: 503 } } })
    await receiveWebhook(core.deps, core.background, raw)
    await core.background.idle()
    for (let run = 0; run < 3 * INBOX_MAX_ATTEMPTS; run++) {
      core.time.advance(INBOX_RETRY_DELAYS_MS.at(-1)!)
      await reconcile(core.deps)
    }
    expect(inbox()).toMatchObject([{ status: 'failed', attempts: INBOX_MAX_ATTEMPTS }])
    const checks = core.checks()
    core.time.advance(INBOX_RETRY_DELAYS_MS.at(-1)!)
    expect(await reconcile(core.deps)).toMatchObject({ replayed: 0 })
    // The payment's own checks go on; the row is not taken again.
    expect(inbox()).toMatchObject([{ attempts: INBOX_MAX_ATTEMPTS }])
    expect(core.checks()).toBeGreaterThanOrEqual(checks)
  })

  it('adopts, without the customer, the transaction of an error payment named by a delivery whose adoption died with the process', async () => {
    const { payment, tx } = await cutAtCreation()
    expect(await getPaymentById(core.deps.db, payment.id)).toMatchObject({ status: 'error' })
    await core.simulator.completePayment(tx.cibTransactionId, 'approved')
    const raw = await lastDelivery()
    expect(await receiveWebhook(core.deps, killed, raw)).toEqual({
      status: 200,
      body: { received: true },
    })
    // Recorded as work to do, not `ignored`: the process may die before its adoption.
    expect(inbox()).toMatchObject([{ status: 'received', paymentId: null }])
    expect(await getPaymentById(core.deps.db, payment.id)).toMatchObject({ status: 'error' })

    core.time.advance(INBOX_REPLAY_GRACE_MS)
    expect(await reconcile(core.deps)).toMatchObject({ replayed: 1, settled: 1 })
    expect(await getPaymentById(core.deps.db, payment.id)).toMatchObject({
      status: 'paid',
      cibTransactionId: tx.cibTransactionId,
      transactionId: tx.transactionId,
      // The check's word: the card network's order id and number.
      orderId: tx.orderId,
      orderNumber: tx.cibTransactionId,
    })
    expect(inbox()).toMatchObject([{ status: 'processed', paymentId: payment.id }])
    expect(events(payment.id).map((e) => [e.toStatus, e.cause])).toEqual([
      ['initiated', 'checkout'],
      ['error', 'checkout'],
      ['pending', 'reconciler'],
      ['paid', 'reconciler'],
    ])
  })

  it('confirms a payment that adopted the transaction before the delivery’s row was marked', async () => {
    const { payment, tx } = await cutAtCreation()
    await core.simulator.completePayment(tx.cibTransactionId, 'declined')
    await receiveWebhook(core.deps, killed, await lastDelivery())
    // The customer's return adopts it meanwhile (and the gateway's check says declined).
    const fresh = await getPaymentById(core.deps.db, payment.id)
    const adopted = await adoptOnReturn(core.deps, fresh!, {
      cibTransactionId: tx.cibTransactionId,
      transactionId: tx.transactionId,
    })
    expect(adopted).toMatchObject({ status: 'failed' })
    core.time.advance(INBOX_REPLAY_GRACE_MS)
    await reconcile(core.deps)
    expect(inbox()).toMatchObject([{ status: 'processed', paymentId: payment.id }])
    expect(await getPaymentById(core.deps.db, payment.id)).toMatchObject({ status: 'failed' })
  })

  it('records a delivery that names no receipt ignored at once, and never takes it again', async () => {
    const created = await core.deps.gateway.card.create({
      account: SIMULATOR_MERCHANT_ACCOUNT,
      amount: '1500',
      full_name: 'Amina Benali',
      phone: '+213550123456',
      email: 'amina@example.dz',
      return_url: 'http://elsewhere.test/done',
      webhook_url: 'http://paylinks.test/webhooks/gateway',
      language: 'fr',
      memo: 'Elsewhere',
      keep_return_url: true,
    })
    await core.simulator.completePayment(created.cib_transaction_id, 'approved')
    await receiveWebhook(core.deps, killed, await lastDelivery())
    expect(inbox()).toMatchObject([{ status: 'ignored', attempts: 1 }])
    core.time.advance(24 * 3_600_000)
    expect(await reconcile(core.deps, 50, { receivedBy: core.time.clock() })).toMatchObject({
      replayed: 0,
    })
    expect(core.checks()).toBe(0)
  })

  it('ends ignored, with no check, a replay pointing a paid payment’s signed message at a made-up transaction', async () => {
    const { payment, raw } = await paidAtGateway()
    await receiveWebhook(core.deps, core.background, raw)
    await core.background.idle()
    expect(await getPaymentById(core.deps.db, payment.id)).toMatchObject({ status: 'paid' })
    const checks = core.checks()
    const replay = JSON.stringify({ ...JSON.parse(raw), cib_transaction_id: '9000000001' })
    // Answered, then marked in the background; and should that die too, by the reconciler.
    expect(await receiveWebhook(core.deps, core.background, replay)).toEqual({
      status: 200,
      body: { received: true, ignored: true },
    })
    await core.background.idle()
    const replayed = () => inbox().find((r) => r.cibTransactionId === '9000000001')
    expect(replayed()).toMatchObject({ status: 'ignored', paymentId: null })
    const other = JSON.stringify({ ...JSON.parse(raw), cib_transaction_id: '9000000002', x: 1 })
    await receiveWebhook(core.deps, killed, other)
    core.time.advance(INBOX_REPLAY_GRACE_MS)
    await reconcile(core.deps)
    expect(inbox().filter((r) => r.paymentId === null)).toMatchObject([{ status: 'ignored' }])
    expect(core.checks()).toBe(checks)
  })
})
