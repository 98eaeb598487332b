/**
 * 1,000 webhook deliveries over loopback HTTP against 500 payments whose true outcome the
 * simulator knows: 20 % exact duplicates, 10 % moved out of order, 5 % forged, the rest genuine
 * (the simulator's own events, plus stale or contradicting events signed with its key, which only
 * the check endpoint can tell apart). The plan is drawn from a fixed seed so a failure replays.
 */
import { afterEach, describe, expect, it } from 'vitest'
import type { PaymentStatus } from '../../db/schema.js'
import { signGatewayMessage } from '../../src/client/index.js'
import { canonicalSignature, signedPairText } from '../../src/domain/webhook-delivery.js'
import { sha256Hex } from '../../src/lib/hash.js'
import { buildMessage } from '../../src/simulator/card/callback.js'
import type { CardOutcome, CardTransaction } from '../../src/simulator/index.js'
import { type Paylinks, startPaylinks } from '../support/harness.js'
import { makeLink } from '../support/links.js'
import {
  auditStatusChanges,
  EXPECTED_STATUS,
  formToken,
  pool,
  postCheckout,
  receiptIdOf,
} from './support.js'

const PAYMENTS = 500
const DELIVERIES = 1000
const DUPLICATES = 200
const REORDERED = 100
const FORGED = 50
// One in ten payments is never finished: the gateway still says "not paid".
const PLAN: (CardOutcome | null)[] = [
  'approved',
  'approved',
  'approved',
  'approved',
  'declined',
  'insufficient_funds',
  'expired_card',
  'canceled',
  'session_expired',
  null,
]

/** A small seeded generator (mulberry32): the same plan on every run. */
function random(seed: number): () => number {
  let a = seed
  return () => {
    a = (a + 0x6d2b79f5) | 0
    let t = Math.imul(a ^ (a >>> 15), 1 | a)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

type Delivery = { body: string; kind: 'genuine' | 'duplicate' | 'forged'; cib: string }

async function anotherKey(): Promise<CryptoKey> {
  const pair = (await crypto.subtle.generateKey(
    {
      name: 'RSASSA-PKCS1-v1_5',
      modulusLength: 2048,
      publicExponent: new Uint8Array([1, 0, 1]),
      hash: 'SHA-256',
    },
    false,
    ['sign', 'verify'],
  )) as CryptoKeyPair
  return pair.privateKey
}

/** A signed event claiming `status` for `tx`, as the gateway would build it. */
async function eventFor(
  tx: CardTransaction,
  status: 'success' | 'failed',
  key: string | CryptoKey,
  tamper?: (message: string) => string,
) {
  const message = buildMessage('inferred', tx.returnUrl, status, tx.amount)
  const signature = await signGatewayMessage(message, key)
  return JSON.stringify({
    event: 'cib.payment.updated',
    payment_status: status,
    transaction_id: tx.transactionId,
    cib_transaction_id: tx.cibTransactionId,
    order_id: tx.orderId,
    order_number: Number(tx.cibTransactionId),
    amount: tx.amount,
    currency: '012',
    resp_code: status === 'success' ? '00' : '05',
    message: tamper ? tamper(message) : message,
    signature,
  })
}

let p: Paylinks | undefined
afterEach(async () => {
  await p?.close()
  p = undefined
})

describe('a storm of 1,000 webhook deliveries', () => {
  it('ends every payment as the gateway knows it, accepts no forged delivery and changes no payment twice', async () => {
    p = await startPaylinks({ http: true })
    const paylinks = p
    const changes = auditStatusChanges(paylinks.sqlite.sqlite)
    const rand = random(20_240_601)
    const pick = <T>(items: readonly T[]): T => items[Math.floor(rand() * items.length)] as T

    // 500 customers start paying on two links; the simulator then ends 90 % of the payments.
    const links = [
      await makeLink(paylinks, { title: 'Storm A', amount: 1500 }),
      await makeLink(paylinks, { title: 'Storm B', amount: 2750.5 }),
    ]
    const tokens = await Promise.all(links.map((l) => formToken(paylinks, l.slug)))
    const answers = await pool(
      8,
      Array.from({ length: PAYMENTS }, (_, i) => () => {
        const which = i % 2
        return postCheckout(paylinks, links[which]!.slug, tokens[which]!, i)
      }),
    )
    expect(answers.every((r) => r.status === 303)).toBe(true)
    const txs = [...paylinks.simulator.state.transactions.values()]
    expect(txs).toHaveLength(PAYMENTS)
    paylinks.simulator.faults.set({ webhooks: { never: true } })
    const truth = new Map<string, PaymentStatus>()
    for (const [i, tx] of txs.entries()) {
      const outcome = PLAN[i % PLAN.length] ?? null
      if (outcome) await paylinks.simulator.completePayment(tx.orderId, outcome)
      truth.set(receiptIdOf(tx.returnUrl), outcome ? EXPECTED_STATUS[outcome] : 'pending')
    }

    // 750 genuine events in the gateway's order: a contradicting one first for some payments.
    const real = [...paylinks.simulator.state.deliveries.values()]
    const lies = DELIVERIES - DUPLICATES - FORGED - real.length
    const deliveries: Delivery[] = []
    const liars = new Set(Array.from({ length: lies }, (_, i) => txs[(i * 7) % txs.length]!))
    expect(liars.size).toBe(lies)
    for (const tx of txs) {
      if (liars.has(tx)) {
        const claim = tx.outcome === 'approved' ? 'failed' : 'success'
        const body = await eventFor(tx, claim, paylinks.simulator.keys.privateKeyPem)
        deliveries.push({ body, kind: 'genuine', cib: tx.cibTransactionId })
      }
      const own = real.find((d) => d.cibTransactionId === tx.cibTransactionId)
      if (own)
        deliveries.push({
          body: JSON.stringify(own.payload),
          kind: 'genuine',
          cib: tx.cibTransactionId,
        })
    }
    expect(deliveries).toHaveLength(DELIVERIES - DUPLICATES - FORGED)

    // 200 exact redeliveries, each somewhere after its original.
    for (let i = 0; i < DUPLICATES; i++) {
      const at = Math.floor(rand() * deliveries.length)
      const original = deliveries[at]!
      const later = at + 1 + Math.floor(rand() * (deliveries.length - at))
      deliveries.splice(later, 0, { ...original, kind: 'duplicate' })
    }
    // 50 forgeries claiming success for unpaid payments: another key, an edited message, junk.
    const otherKey = await anotherKey()
    const unpaid = txs.filter((tx) => tx.outcome !== 'approved')
    for (let i = 0; i < FORGED; i++) {
      const tx = pick(unpaid)
      const body =
        i % 3 === 0
          ? await eventFor(tx, 'success', otherKey)
          : i % 3 === 1
            ? await eventFor(tx, 'success', paylinks.simulator.keys.privateKeyPem, (m) => `${m}0`)
            : JSON.stringify({
                ...JSON.parse(await eventFor(tx, 'success', otherKey)),
                signature: `AAAA${i}`,
              })
      deliveries.splice(Math.floor(rand() * deliveries.length), 0, {
        body,
        kind: 'forged',
        cib: tx.cibTransactionId,
      })
    }
    // 100 deliveries moved to another place in the sequence.
    for (let i = 0; i < REORDERED; i++) {
      const [moved] = deliveries.splice(Math.floor(rand() * deliveries.length), 1)
      deliveries.splice(Math.floor(rand() * deliveries.length), 0, moved!)
    }
    expect(deliveries).toHaveLength(DELIVERIES)

    // Delivered in that order over HTTP, ten at a time (so duplicates also race each other).
    const statuses = await pool(
      10,
      deliveries.map((d) => async () => {
        const res = await fetch(`${paylinks.url}/webhooks/gateway`, {
          method: 'POST',
          body: d.body,
          headers: { 'content-type': 'application/json' },
        })
        await res.arrayBuffer()
        return res.status
      }),
    )
    await paylinks.settle()

    for (const [i, d] of deliveries.entries()) {
      expect({ kind: d.kind, status: statuses[i] }).toEqual({
        kind: d.kind,
        status: d.kind === 'forged' ? 401 : 200,
      })
    }
    const inbox = paylinks.sqlite.sqlite
      .prepare('SELECT dedupe_key AS key, status FROM webhook_events')
      .all() as { key: string; status: string }[]
    // An inbox key: the signed pair and the (known) transaction the delivery names.
    const keyOf = async (body: string) => {
      const { message, signature, cib_transaction_id } = JSON.parse(body)
      return `${await sha256Hex(signedPairText(message, canonicalSignature(signature)))}:${cib_transaction_id}`
    }
    const genuineKeys = new Set(
      await Promise.all(deliveries.filter((d) => d.kind !== 'forged').map((d) => keyOf(d.body))),
    )
    const forgedKeys = await Promise.all(
      deliveries.filter((d) => d.kind === 'forged').map((d) => keyOf(d.body)),
    )
    expect(inbox).toHaveLength(genuineKeys.size)
    expect(inbox.every((e) => genuineKeys.has(e.key) && e.status === 'processed')).toBe(true)
    expect(forgedKeys.some((k) => inbox.some((e) => e.key === k))).toBe(false)

    const rows = paylinks.sqlite.sqlite
      .prepare('SELECT id, receipt_id AS receiptId, status FROM payments')
      .all() as { id: string; receiptId: string; status: PaymentStatus }[]
    expect(rows).toHaveLength(PAYMENTS)
    const wrong = rows.filter((r) => truth.get(r.receiptId) !== r.status)
    expect(wrong).toEqual([])

    // initiated → pending at checkout, then at most one change: to the true outcome.
    const byPayment = new Map<string, string[]>()
    for (const c of changes())
      byPayment.set(c.paymentId, [...(byPayment.get(c.paymentId) ?? []), `${c.old}→${c.new}`])
    for (const row of rows) {
      const expected = ['initiated→pending']
      const final = truth.get(row.receiptId)!
      if (final !== 'pending') expected.push(`pending→${final}`)
      expect({ id: row.id, changes: byPayment.get(row.id) }).toEqual({
        id: row.id,
        changes: expected,
      })
    }
  }, 120_000)
})
