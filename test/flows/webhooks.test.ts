import { eq } from 'drizzle-orm'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { payments, webhookEvents } from '../../db/schema.js'
import { signGatewayMessage } from '../../src/client/index.js'
import { getPaymentById } from '../../src/data/payments.js'
import { confirmPayment } from '../../src/payments/confirm.js'
import { type Paylinks, startPaylinks } from '../support/harness.js'
import { makeLink } from '../support/links.js'
import { pathOf, startPayment } from './support.js'

let p: Paylinks
beforeEach(async () => {
  p = await startPaylinks()
})
afterEach(async () => {
  await p.close()
})

function postWebhook(body: string) {
  return p.app.request('/webhooks/gateway', {
    method: 'POST',
    body,
    headers: { 'content-type': 'application/json' },
  })
}

function deliveryFor(cibTransactionId: string) {
  const delivery = [...p.simulator.state.deliveries.values()].find(
    (d) => d.cibTransactionId === cibTransactionId,
  )
  if (!delivery) throw new Error('no delivery')
  return JSON.stringify(delivery.payload)
}

async function paidLinkPayment(outcome: 'approved' | 'declined' = 'approved') {
  const link = await makeLink(p, { title: 'Webhook test', amount: 1000 })
  const started = await startPayment(p, link.slug)
  await p.simulator.completePayment(started.tx.cibTransactionId, outcome)
  await p.settle()
  return started
}

describe('the gateway webhook', () => {
  it('acknowledges a duplicate delivery and changes nothing', async () => {
    const { tx, payment } = await paidLinkPayment()
    const before = await getPaymentById(p.deps.db, payment.id)
    expect(before?.status).toBe('paid')
    const body = deliveryFor(tx.cibTransactionId)
    for (let i = 0; i < 3; i++) {
      const res = await postWebhook(body)
      expect(res.status).toBe(200)
      expect(await res.json()).toMatchObject({ received: true, duplicate: true })
    }
    await p.settle()
    const after = await getPaymentById(p.deps.db, payment.id)
    expect(after).toEqual(before)
    const events = await p.deps.db
      .select()
      .from(webhookEvents)
      .where(eq(webhookEvents.cibTransactionId, tx.cibTransactionId))
    expect(events).toHaveLength(1)
  })

  it('rejects a forged delivery with 401 and changes nothing', async () => {
    const link = await makeLink(p, { title: 'Forged', amount: 1000 })
    const { tx, payment } = await startPayment(p, link.slug)
    p.simulator.faults.set({ webhooks: { never: true } })
    await p.simulator.completePayment(tx.cibTransactionId, 'declined')
    await p.settle()
    const forgedKey = (await crypto.subtle.generateKey(
      {
        name: 'RSASSA-PKCS1-v1_5',
        modulusLength: 2048,
        publicExponent: new Uint8Array([1, 0, 1]),
        hash: 'SHA-256',
      },
      true,
      ['sign', 'verify'],
    )) as CryptoKeyPair
    const message = `success${tx.amount / 100}`
    const forged = {
      event: 'cib.payment.updated',
      payment_status: 'success',
      transaction_id: tx.transactionId,
      cib_transaction_id: tx.cibTransactionId,
      order_id: tx.orderId,
      order_number: Number(tx.cibTransactionId),
      order_status: 2,
      amount: tx.amount,
      currency: '012',
      error_code: null,
      error_message: null,
      action_code: 0,
      action_code_description: 'Approved',
      resp_code: '00',
      resp_code_desc: 'Approved',
      message,
      signature: await signGatewayMessage(message, forgedKey.privateKey),
    }
    const res = await postWebhook(JSON.stringify(forged))
    expect(res.status).toBe(401)
    const unsigned = await postWebhook(JSON.stringify({ ...forged, signature: 'AAAA' }))
    expect(unsigned.status).toBe(401)
    await p.settle()
    expect((await getPaymentById(p.deps.db, payment.id))?.status).toBe('pending')
    expect(await p.deps.db.select().from(webhookEvents)).toHaveLength(0)
  })

  it('answers with the headers of a reply to a server: JSON, never cached, sniffed or framed', async () => {
    const res = await postWebhook('{not json')
    expect(Object.fromEntries(res.headers)).toMatchObject({
      'content-type': 'application/json',
      'cache-control': 'no-store',
      'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
      'x-content-type-options': 'nosniff',
      'x-frame-options': 'DENY',
    })
    expect(res.headers.get('x-request-id')).toMatch(/^\w{8,}$/)
  })

  it('answers 400 to a body that is not JSON or not the event', async () => {
    expect((await postWebhook('{not json')).status).toBe(400)
    expect((await postWebhook(JSON.stringify({ hello: 'world' }))).status).toBe(400)
    expect((await postWebhook('')).status).toBe(400)
  })

  it('settles each payment right when deliveries arrive out of order', async () => {
    p.simulator.faults.set({ webhooks: { outOfOrder: 3 } })
    const link = await makeLink(p, { title: 'Reorder', amount: 700 })
    const a = await startPayment(p, link.slug)
    const b = await startPayment(p, link.slug)
    const c = await startPayment(p, link.slug)
    await p.simulator.completePayment(a.tx.cibTransactionId, 'approved')
    await p.simulator.completePayment(b.tx.cibTransactionId, 'declined')
    await p.simulator.completePayment(c.tx.cibTransactionId, 'canceled')
    await p.settle()
    expect((await getPaymentById(p.deps.db, a.payment.id))?.status).toBe('paid')
    expect((await getPaymentById(p.deps.db, b.payment.id))?.status).toBe('failed')
    expect((await getPaymentById(p.deps.db, c.payment.id))?.status).toBe('canceled')
  })

  it('settles through the return alone when the webhook never comes, and a late webhook changes nothing', async () => {
    p.simulator.faults.set({ webhooks: { never: true } })
    const link = await makeLink(p, { title: 'Return first', amount: 1000, language: 'en' })
    const { tx, payment } = await startPayment(p, link.slug)
    await p.simulator.completePayment(tx.cibTransactionId, 'approved')
    await p.settle()
    expect((await getPaymentById(p.deps.db, payment.id))?.status).toBe('pending')
    const res = await p.app.request(pathOf(tx.returnRedirect ?? ''))
    expect(await res.text()).toContain('Payment successful')
    const paid = await getPaymentById(p.deps.db, payment.id)
    expect(paid?.status).toBe('paid')
    // The same event delivered late: recorded once, no second transition.
    const res2 = await postWebhook(deliveryFor(tx.cibTransactionId))
    expect(res2.status).toBe(200)
    await p.settle()
    expect(await getPaymentById(p.deps.db, payment.id)).toEqual(paid)
  })

  it('shows the receipt from the stored outcome when the webhook came first', async () => {
    const { tx, payment } = await paidLinkPayment()
    const paid = await getPaymentById(p.deps.db, payment.id)
    expect(paid?.status).toBe('paid')
    const res = await p.app.request(pathOf(tx.returnRedirect ?? ''))
    expect(res.status).toBe(200)
    expect(await getPaymentById(p.deps.db, payment.id)).toEqual(paid)
  })

  it('does not trust a tampered return that claims success while the check says declined', async () => {
    p.simulator.faults.set({ webhooks: { never: true } })
    const link = await makeLink(p, { title: 'Tampered', amount: 1000, language: 'en' })
    const { tx, payment, receiptId } = await startPayment(p, link.slug)
    await p.simulator.completePayment(tx.cibTransactionId, 'declined')
    const query = new URLSearchParams({
      payment_status: 'success',
      transaction_id: tx.transactionId,
      cib_transaction_id: tx.cibTransactionId,
      message: 'success1000',
      signature: 'aGVsbG8',
    })
    const res = await p.app.request(`/r/${receiptId}?${query}`)
    const html = await res.text()
    expect(html).not.toContain('Payment successful')
    expect(html).toContain('Payment not completed')
    expect((await getPaymentById(p.deps.db, payment.id))?.status).toBe('failed')
  })

  it('never marks paid a payment whose check amount differs from the payment', async () => {
    p.simulator.faults.set({ webhooks: { never: true } })
    const link = await makeLink(p, { title: 'Amount', amount: 1000 })
    const { tx, payment } = await startPayment(p, link.slug)
    await p.simulator.completePayment(tx.cibTransactionId, 'approved')
    // The gateway charged 1000 DZD; the payment expects 1000.01 DZD.
    await p.deps.db.update(payments).set({ amount: 100001 }).where(eq(payments.id, payment.id))
    const row = await getPaymentById(p.deps.db, payment.id)
    const result = await confirmPayment(p.deps, row!, 'webhook')
    expect(result.payment.status).toBe('failed')
    expect(result.payment.errorReason).toContain('amount')
  })

  it('never marks paid a payment whose money went to another account', async () => {
    p.simulator.faults.set({ webhooks: { never: true } })
    const link = await makeLink(p, { title: 'Account', amount: 1000 })
    const { tx, payment } = await startPayment(p, link.slug)
    await p.simulator.completePayment(tx.cibTransactionId, 'approved')
    const row = await getPaymentById(p.deps.db, payment.id)
    const other = {
      ...p.deps,
      merchantAccount: 'GCAZI7YBLIDJWIVEL7ETNAZGPP3LC24NO6KAOBWZHUERXQ7M5BC52DLV',
    }
    const result = await confirmPayment(other, row!, 'webhook')
    expect(result.payment.status).toBe('failed')
    expect(result.payment.errorReason).toContain('account')
  })

  it('answers 500 when it cannot store a delivery, so the gateway delivers it again', async () => {
    const link = await makeLink(p, { title: 'Storage down', amount: 1000 })
    const started = await startPayment(p, link.slug)
    p.simulator.faults.set({ webhooks: { never: true } })
    await p.simulator.completePayment(started.tx.cibTransactionId, 'approved')
    const body = deliveryFor(started.tx.cibTransactionId)
    // The inbox is gone from under the running app: nothing can be recorded.
    p.sqlite.sqlite.exec('ALTER TABLE webhook_events RENAME TO webhook_events_gone')
    const res = await postWebhook(body)
    expect(res.status).toBe(500)
    expect(res.headers.get('content-type')).toContain('application/json')
    expect(await res.json()).toMatchObject({ error: { code: 'internal' } })
    p.sqlite.sqlite.exec('ALTER TABLE webhook_events_gone RENAME TO webhook_events')
    // The next delivery of the same event is recorded and settles the payment.
    expect((await postWebhook(body)).status).toBe(200)
    await p.settle()
    expect((await getPaymentById(p.deps.db, started.payment.id))?.status).toBe('paid')
  })
})

describe('the webhook path before routing', () => {
  it('answers a delivery it cannot store with a logged 500 carrying its request id, naming no customer', async () => {
    await p.close()
    const lines: Record<string, unknown>[] = []
    p = await startPaylinks({ log: (entry) => lines.push(entry) })
    const link = await makeLink(p, { title: 'Storage down', amount: 1000 })
    const started = await startPayment(p, link.slug)
    p.simulator.faults.set({ webhooks: { never: true } })
    await p.simulator.completePayment(started.tx.cibTransactionId, 'approved')
    p.sqlite.sqlite.exec('DROP TABLE webhook_events')
    const res = await postWebhook(deliveryFor(started.tx.cibTransactionId))
    expect(res.status).toBe(500)
    const id = res.headers.get('x-request-id')
    expect(id).toMatch(/^[0-9A-Za-z]{12}$/)
    expect(res.headers.get('cache-control')).toBe('no-store')
    expect(lines).toContainEqual(
      expect.objectContaining({ level: 'error', event: 'unhandled', request_id: id }),
    )
    expect(lines).toContainEqual(
      expect.objectContaining({ request_id: id, route: '/webhooks/gateway', status: 500 }),
    )
  })

  it('takes the same delivery through the router when the path carries a query', async () => {
    const link = await makeLink(p, { title: 'Routed', amount: 1000 })
    const started = await startPayment(p, link.slug)
    p.simulator.faults.set({ webhooks: { never: true } })
    await p.simulator.completePayment(started.tx.cibTransactionId, 'approved')
    const res = await p.app.request('/webhooks/gateway?from=gateway', {
      method: 'POST',
      body: deliveryFor(started.tx.cibTransactionId),
      headers: { 'content-type': 'application/json' },
    })
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ received: true })
    await p.settle()
    expect((await getPaymentById(p.deps.db, started.payment.id))?.status).toBe('paid')
    expect(await p.app.request('/webhooks/gateway', { method: 'GET' })).toHaveProperty(
      'status',
      404,
    )
  })
})
