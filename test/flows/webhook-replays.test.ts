/**
 * Replays of signed webhooks: only `message` is signed, so a replayer may pad a delivery, spell
 * its signature another way or point it at another transaction. None of that grows the inbox or
 * moves a payment the check endpoint does not move.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { getPaymentById } from '../../src/data/payments.js'
import { type Paylinks, startPaylinks } from '../support/harness.js'
import { makeLink } from '../support/links.js'
import { startPayment } from './support.js'
import { inboxRows, postWebhook, signedEvent } from './webhook-support.js'

let p: Paylinks
afterEach(async () => {
  await p.close()
})

async function start(log?: (entry: Record<string, unknown>) => void) {
  p = await startPaylinks(log ? { log } : {})
  p.simulator.faults.set({ webhooks: { never: true } })
}

async function payment(title: string, customer: number) {
  const link = await makeLink(p, { title, amount: 1000 })
  return startPayment(p, link.slug, {}, { 'x-test-ip': `10.0.1.${customer}` })
}

/** 60 KB of padding, different for each replay. */
const padding = (i: number) => `${i}-`.padEnd(60 * 1024, String.fromCharCode(97 + (i % 26)))

describe('replayed webhook deliveries', () => {
  it('stores one small row for 50 replays of a signed delivery padded with 60 KB each', async () => {
    await start()
    const { tx, payment: row } = await payment('Padded', 1)
    await p.simulator.completePayment(tx.cibTransactionId, 'approved')
    const event = await signedEvent(p, tx, 'success')
    const signature = String(event.signature)
    // The spellings of one signature the verifiers accept: padded or not, either alphabet, and
    // unused low bits set in the last character (256 bytes leave it 4 of them).
    const urlSafe = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'
    const unpadded = signature.replace(/=+$/, '')
    const spellings = [
      `${unpadded.slice(0, -1)}${urlSafe[urlSafe.indexOf(unpadded.at(-1) as string) | 0b1010]}`,
      signature,
      signature.replace(/=+$/, ''),
      signature.replace(/-/g, '+').replace(/_/g, '/'),
      signature.replace(/-/g, '+').replace(/_/g, '/').replace(/=+$/, ''),
    ]
    for (let i = 0; i < 50; i++) {
      const body = JSON.stringify({
        ...event,
        signature: spellings[i % spellings.length],
        padding: padding(i),
        sent_at: i,
      })
      expect(body.length).toBeGreaterThan(60 * 1024)
      expect((await postWebhook(p, body)).status).toBe(200)
    }
    await p.settle()
    const rows = inboxRows(p)
    expect(rows).toHaveLength(1)
    expect(rows[0]?.payment_id).toBe(row.id)
    expect(rows[0]?.payload.length).toBeLessThan(1500)
    expect(rows[0]?.payload).not.toContain('padding')
    expect((await getPaymentById(p.deps.db, row.id))?.status).toBe('paid')
  })

  it('stores at most one row for 50 replays naming transactions Paylinks does not have', async () => {
    await start()
    const { tx } = await payment('Unknown ids', 1)
    const event = await signedEvent(p, tx, 'success')
    for (let i = 0; i < 50; i++) {
      const res = await postWebhook(p, { ...event, cib_transaction_id: `9${1000 + i}` })
      expect(res.status).toBe(200)
      expect(await res.json()).toMatchObject({ received: true, ignored: true })
    }
    await p.settle()
    const rows = inboxRows(p)
    expect(rows.length).toBeLessThanOrEqual(1)
    expect(rows.every((r) => r.status === 'ignored' && r.payment_id === null)).toBe(true)
  })

  it('moves no payment the check endpoint does not move when a signed delivery is pointed at it', async () => {
    await start()
    // The replayer's own payment, approved: its signed "success" event is theirs to replay.
    const own = await payment('Own', 1)
    await p.simulator.completePayment(own.tx.cibTransactionId, 'approved')
    const event = await signedEvent(p, own.tx, 'success')
    const open = await payment('Open', 2)
    const declined = await payment('Declined', 3)
    await p.simulator.completePayment(declined.tx.cibTransactionId, 'declined')
    await postWebhook(p, await signedEvent(p, declined.tx, 'failed'))
    await p.settle()
    expect((await getPaymentById(p.deps.db, declined.payment.id))?.status).toBe('failed')
    for (let i = 0; i < 50; i++) {
      for (const target of [open, declined]) {
        const retargeted = { ...event, cib_transaction_id: target.tx.cibTransactionId, sent_at: i }
        expect((await postWebhook(p, retargeted)).status).toBe(200)
      }
    }
    await p.settle()
    expect((await getPaymentById(p.deps.db, open.payment.id))?.status).toBe('pending')
    expect((await getPaymentById(p.deps.db, declined.payment.id))?.status).toBe('failed')
    // One row per payment the pair was pointed at, beside the declined payment's own event.
    const byPayment = new Map<string | null, number>()
    for (const r of inboxRows(p))
      byPayment.set(r.payment_id, (byPayment.get(r.payment_id) ?? 0) + 1)
    expect(byPayment.get(open.payment.id)).toBe(1)
    expect(byPayment.get(declined.payment.id)).toBe(2)
  })

  it('refuses a cib_transaction_id longer than 64 characters and logs no long unsigned field', async () => {
    const lines: string[] = []
    await start((entry) => lines.push(JSON.stringify(entry)))
    const { tx } = await payment('Long fields', 1)
    const event = await signedEvent(p, tx, 'success')
    const long = 'Z'.repeat(5000)
    const refused = await postWebhook(p, { ...event, cib_transaction_id: long })
    expect(refused.status).toBe(400)
    expect((await refused.json()).error.message).toContain('cib_transaction_id')
    const forged = await postWebhook(p, { ...event, cib_transaction_id: long, signature: 'AAAA' })
    expect(forged.status).toBe(400)
    // Signed, naming no known transaction, every other unsigned field long.
    const unknown = {
      ...event,
      cib_transaction_id: 'Z'.repeat(64),
      transaction_id: long,
      order_id: long,
      error_message: long,
      resp_code_desc: long,
      payment_status: long,
      padding: long,
    }
    expect((await postWebhook(p, unknown)).status).toBe(200)
    expect((await postWebhook(p, { ...unknown, signature: 'AAAA' })).status).toBe(401)
    await p.settle()
    expect(lines.some((l) => l.includes('webhook_unknown_transaction'))).toBe(true)
    expect(lines.some((l) => l.includes('webhook_forged'))).toBe(true)
    for (const line of lines) {
      expect(line).not.toContain('Z'.repeat(65))
      expect(line.length).toBeLessThan(600)
    }
  })
})
