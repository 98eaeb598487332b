/**
 * Webhook ingestion on its own (src/payments/webhook.ts `receiveWebhook`): the simulator's real
 * signed deliveries handed straight to the receiver — no app, no HTTP — on a real SQLite file.
 * What is answered, what the inbox holds, what is logged, and when the gateway is asked.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { webhookEvents } from '../../db/schema.js'
import { getPaymentById } from '../../src/data/payments.js'
import { receiveWebhook } from '../../src/payments/webhook.js'
import { sha256HexSync } from '../../src/runtime/node/runtime.js'
import { verifyGatewaySignatureSync } from '../../src/runtime/node/signature.js'
import { SIMULATOR_MERCHANT_ACCOUNT, SIMULATOR_PUBLIC_KEY_PEM } from '../../src/simulator/index.js'
import { openPaymentCore, type PaymentCore } from './support.js'

let core: PaymentCore

beforeEach(() => {
  core = openPaymentCore()
})
afterEach(() => {
  core.close()
})

/** Hands a body to the receiver and waits for the background work it started. */
async function receive(raw: string) {
  const answer = await receiveWebhook(core.deps, core.background, raw)
  await core.background.idle()
  return answer
}

function inbox() {
  return core.deps.db.select().from(webhookEvents).all()
}

/** A payment the customer has just paid (the gateway knows, Paylinks not yet), and its delivery. */
async function paidAtGateway() {
  const payment = await core.pay(await core.link())
  await core.simulator.completePayment(payment.cibTransactionId!, 'approved')
  await core.simulator.flush()
  const raw = core.deliveries.at(-1)
  if (!raw) throw new Error('the simulator sent no webhook')
  return { payment, raw }
}

describe('receiveWebhook', () => {
  it('confirms a new delivery through the check endpoint and records it processed', async () => {
    const { payment, raw } = await paidAtGateway()
    expect(await receive(raw)).toEqual({ status: 200, body: { received: true } })
    expect(core.checks()).toBe(1)
    expect((await getPaymentById(core.deps.db, payment.id))?.status).toBe('paid')
    expect(inbox()).toMatchObject([{ status: 'processed', paymentId: payment.id }])
  })

  it('records a delivery for a payment already paid as processed at once, with no check after', async () => {
    const { payment, raw } = await paidAtGateway()
    await core.confirmations.confirm(core.deps, payment.id)
    expect(core.checks()).toBe(1)
    const answer = await receiveWebhook(core.deps, core.background, raw)
    expect(answer).toEqual({ status: 200, body: { received: true } })
    // Processed in the write that recorded it, and nothing started after: no confirmation marks it.
    expect(inbox()).toMatchObject([{ status: 'processed', paymentId: payment.id, attempts: 1 }])
    await core.background.idle()
    expect(inbox()).toMatchObject([{ status: 'processed', attempts: 1 }])
    expect(core.checks()).toBe(1)
  })

  it('answers a replay as a duplicate, keeps one inbox row and asks nothing more', async () => {
    const { raw } = await paidAtGateway()
    await receive(raw)
    expect(await receive(raw)).toEqual({ status: 200, body: { received: true, duplicate: true } })
    expect(await receive(raw)).toEqual({ status: 200, body: { received: true, duplicate: true } })
    expect(core.checks()).toBe(1)
    expect(inbox()).toHaveLength(1)
  })

  it('records an unknown transaction once as ignored, logged, with no check', async () => {
    // A real transaction of this merchant that no payment holds, its return URL no receipt.
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
    await core.simulator.flush()
    const raw = core.deliveries.at(-1)!
    expect(await receive(raw)).toEqual({ status: 200, body: { received: true, ignored: true } })
    expect(core.lines).toContainEqual(
      expect.objectContaining({
        event: 'webhook_unknown_transaction',
        cib_transaction_id: created.cib_transaction_id,
      }),
    )
    expect(await receive(raw)).toEqual({
      status: 200,
      body: { received: true, duplicate: true, ignored: true },
    })
    expect(inbox()).toMatchObject([{ status: 'ignored', paymentId: null }])
    expect(core.checks()).toBe(0)
  })

  it('records failed when the gateway cannot confirm, and processes the redelivery', async () => {
    const { payment, raw } = await paidAtGateway()
    core.simulator.faults.set({ endpoints: { 'cib-transaction-check': { status5xx: 503 } } })
    expect(await receive(raw)).toEqual({ status: 200, body: { received: true } })
    expect(inbox()).toMatchObject([
      { status: 'failed', lastError: 'the check endpoint did not answer' },
    ])
    expect((await getPaymentById(core.deps.db, payment.id))?.status).toBe('pending')
    core.simulator.faults.clear()
    expect(await receive(raw)).toEqual({ status: 200, body: { received: true } })
    expect(inbox()).toMatchObject([{ status: 'processed', paymentId: payment.id }])
    expect((await getPaymentById(core.deps.db, payment.id))?.status).toBe('paid')
  })

  it('refuses a bad signature with 401, logs it and records nothing', async () => {
    const { raw } = await paidAtGateway()
    const event = JSON.parse(raw) as Record<string, string>
    const forged = JSON.stringify({ ...event, message: `${event.message} ` })
    expect(await receive(forged)).toEqual({
      status: 401,
      body: { error: { code: 'bad_signature', message: 'The signature does not verify.' } },
    })
    expect(core.lines).toContainEqual(
      expect.objectContaining({ level: 'warn', event: 'webhook_forged' }),
    )
    expect(inbox()).toEqual([])
    expect(core.checks()).toBe(0)
  })

  it("takes Node's answer-at-once verifier and hash as the awaited ones: same verdicts, same inbox key", async () => {
    const { payment, raw } = await paidAtGateway()
    const sync = {
      ...core.deps,
      verifySignature: (message: string, signature: string) =>
        verifyGatewaySignatureSync(message, signature, SIMULATOR_PUBLIC_KEY_PEM),
      sha256Hex: sha256HexSync,
    }
    const event = JSON.parse(raw) as Record<string, string>
    const forged = JSON.stringify({ ...event, message: `${event.message}0` })
    expect((await receiveWebhook(sync, core.background, forged)).status).toBe(401)
    expect(await receiveWebhook(sync, core.background, raw)).toEqual({
      status: 200,
      body: { received: true },
    })
    await core.background.idle()
    expect((await getPaymentById(core.deps.db, payment.id))?.status).toBe('paid')
    // The awaited verifier and hash (WebCrypto) key the same delivery to the same row.
    expect(await receive(raw)).toEqual({ status: 200, body: { received: true, duplicate: true } })
    expect(inbox()).toMatchObject([{ status: 'processed', paymentId: payment.id }])
  })

  it('refuses a body that is not JSON, not the event, or names an overlong id, with 400', async () => {
    const { raw } = await paidAtGateway()
    const event = JSON.parse(raw) as Record<string, unknown>
    const bodies = [
      '{"event":',
      '{}',
      JSON.stringify({ ...event, cib_transaction_id: '9'.repeat(65) }),
    ]
    const answers = []
    for (const body of bodies) answers.push(await receive(body))
    expect(answers.map((a) => a.status)).toEqual([400, 400, 400])
    expect(answers.map((a) => (a.body as { error: { code: string } }).error.code)).toEqual([
      'malformed',
      'malformed',
      'malformed',
    ])
    expect(inbox()).toEqual([])
  })
})
