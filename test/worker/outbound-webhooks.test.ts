/**
 * On Workers the Cron trigger sends the outbound webhooks due: the outbox row is written by the
 * delivery triggers on a local D1 migrated by wrangler (its statement splitter included), and the
 * `scheduled` handler POSTs it, signed, to a real receiver on loopback. Outside simulator mode it
 * first resolves the target's name over DNS over HTTPS (a fake resolver here: no network).
 */
import type { ExecutionContext, ScheduledController } from '@cloudflare/workers-types/index.ts'
import { eq } from 'drizzle-orm'
import { drizzle } from 'drizzle-orm/d1'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import * as schema from '../../db/schema.js'
import { createApp } from '../../src/app/index.js'
import type { Db } from '../../src/data/db.js'
import { applyOutcome, markPending, reservePayment } from '../../src/data/payments.js'
import { createEndpoint } from '../../src/outbound-webhooks/endpoints.js'
import { createWorker } from '../../src/runtime/worker/handler.js'
import type { DohFetch } from '../../src/runtime/worker/resolve-host.js'
import { paymentRequest } from '../data/helpers.js'
import { type Receiver, startReceiver, verify } from '../outbound-webhooks/receiver.js'
import { storeLink } from '../support/links.js'
import { useLocalD1, WORKER_ADMIN_TOKEN } from './support.js'

const local = useLocalD1('outbound')
let receiver: Receiver
beforeAll(async () => {
  receiver = await startReceiver()
})
afterAll(() => receiver.close())

describe('the Worker’s Cron trigger', () => {
  it('sends a due delivery, signed, and marks it delivered', async () => {
    const db = drizzle(local.d1(), { schema }) as unknown as Db
    const now = Date.now()
    const endpoint = await createEndpoint(
      db,
      { url: receiver.url, description: null, eventTypes: ['payment.paid'], enabled: true },
      now,
    )
    const paymentId = await paidPayment(db, now, 1)
    const [row] = await db.select().from(schema.deliveries)
    expect(row?.state).toBe('pending')

    const worker = createWorker({
      app: createApp,
      loadSimulator: () => import('../../src/simulator/index.js'),
    })
    const waits: Promise<unknown>[] = []
    const ctx = {
      waitUntil: (p: Promise<unknown>) => waits.push(p),
      passThroughOnException() {},
      props: {},
    } as unknown as ExecutionContext
    const env = {
      DB: local.d1(),
      ADMIN_TOKEN: WORKER_ADMIN_TOKEN,
      GATEWAY_MODE: 'simulator',
      PUBLIC_URL: 'http://127.0.0.1:8787',
      CAPTCHA: 'off',
    }
    await worker.scheduled({} as ScheduledController, env, ctx)
    while (waits.length > 0) await Promise.allSettled(waits.splice(0))

    expect(receiver.received).toHaveLength(1)
    const event = verify(endpoint.secret, receiver.received[0]!, Date.now()) as {
      type: string
      data: { id: string }
    }
    expect([event.type, event.data.id]).toEqual(['payment.paid', paymentId])
    const [sent] = await db.select().from(schema.deliveries)
    expect([sent?.state, sent?.attempts, sent?.lastStatus]).toEqual(['delivered', 1, 200])
  }, 60_000)

  it('refuses, before sending, a target whose name answers a private address over DoH', async () => {
    const db = drizzle(local.d1(), { schema }) as unknown as Db
    const now = Date.now()
    const endpoint = await createEndpoint(
      db,
      {
        url: 'https://hooks.shop.example/paylinks',
        description: null,
        eventTypes: ['payment.paid'],
        enabled: true,
      },
      now,
    )
    await paidPayment(db, now, 2)
    // The resolver answers a public address and, beside it, one of the Worker's own network's.
    const asked: string[] = []
    const dohFetch: DohFetch = async (url) => {
      const question = new URL(url).searchParams
      asked.push(`${question.get('name')} ${question.get('type')}`)
      const answer =
        question.get('type') === 'A'
          ? [
              { name: 'hooks.shop.example', type: 1, TTL: 60, data: '93.184.215.14' },
              { name: 'hooks.shop.example', type: 1, TTL: 60, data: '10.0.0.7' },
            ]
          : []
      return Response.json({ Status: 0, Answer: answer })
    }
    const worker = createWorker({ app: createApp, dohFetch })
    const waits: Promise<unknown>[] = []
    const ctx = {
      waitUntil: (p: Promise<unknown>) => waits.push(p),
      passThroughOnException() {},
      props: {},
    } as unknown as ExecutionContext
    const env = {
      DB: local.d1(),
      ADMIN_TOKEN: WORKER_ADMIN_TOKEN,
      GATEWAY_MODE: 'sandbox',
      MERCHANT_ACCOUNT: 'GCAZI7YBLIDJWIVEL7ETNAZGPP3LC24NO6KAOBWZHUERXQ7M5BC52DLV',
      PUBLIC_URL: 'https://pay.shop.example',
      CAPTCHA: 'off',
    }
    await worker.scheduled({} as ScheduledController, env, ctx)
    while (waits.length > 0) await Promise.allSettled(waits.splice(0))

    expect(asked.sort()).toEqual(['hooks.shop.example A', 'hooks.shop.example AAAA'])
    const [refused] = await db
      .select()
      .from(schema.deliveries)
      .where(eq(schema.deliveries.endpointId, endpoint.id))
    expect([refused?.state, refused?.attempts, refused?.lastStatus, refused?.lastError]).toEqual([
      'pending',
      1,
      null,
      'refused: private_address',
    ])
  }, 60_000)
})

/** A payment of a new link, paid: the delivery triggers write its outbox rows. */
async function paidPayment(db: Db, now: number, n: number): Promise<string> {
  const link = await storeLink(db, { amount: 150000 })
  const r = await reservePayment(db, paymentRequest(link), now)
  if (!r.ok) throw new Error('not reserved')
  await markPending(
    db,
    r.payment.id,
    {
      transactionId: `tx_w${n}`,
      cibTransactionId: `CIBW0000000${n}`,
      paymentUrl: `https://pay.example/w${n}`,
      gatewayResponse: {},
    },
    now,
  )
  await applyOutcome(db, r.payment.id, 'paid', {}, now, 'webhook')
  return r.payment.id
}
