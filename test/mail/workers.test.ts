/**
 * The D1 side of mail on Workers, on a local D1 migrated by wrangler (its statement splitter
 * included): the Worker's start writes `mail_outbox` and `mail_notices` in its settings batch (on
 * with SMTP_URL, off without, and then a paid payment gets no mail row); the 0013 trigger,
 * switched on, writes one row per e-mail. test/worker/mail.test.ts sends them from workerd.
 */
import type { ExecutionContext, ScheduledController } from '@cloudflare/workers-types/index.ts'
import { asc, eq, sql } from 'drizzle-orm'
import { drizzle } from 'drizzle-orm/d1'
import { describe, expect, it } from 'vitest'
import * as schema from '../../db/schema.js'
import { createApp } from '../../src/app/index.js'
import type { Db } from '../../src/data/db.js'
import { applyOutcome, markPending, reservePayment } from '../../src/data/payments.js'
import { toAlgiersIso } from '../../src/domain/algiers-time.js'
import { createWorker } from '../../src/runtime/worker/handler.js'
import { paymentRequest } from '../data/helpers.js'
import { storeLink } from '../support/links.js'
import { assetsBinding, useLocalD1, WORKER_ADMIN_TOKEN } from '../worker/support.js'
import { nodeSmtpConnect } from './node-smtp-socket.js'
import { startInbox } from './support.js'

const local = useLocalD1('mail')

async function paid(db: Db, n: number): Promise<string> {
  const now = Date.now()
  const link = await storeLink(db, { amount: 150000 })
  const r = await reservePayment(db, paymentRequest(link), now)
  if (!r.ok) throw new Error('not reserved')
  const ids = {
    transactionId: `tx_m${n}`,
    cibTransactionId: `CIBM0000000${n}`,
    paymentUrl: `https://pay.example/m${n}`,
    gatewayResponse: {},
  }
  await markPending(db, r.payment.id, ids, now)
  await applyOutcome(db, r.payment.id, 'paid', {}, now, 'webhook')
  return r.payment.id
}

const mailRows = (db: Db) =>
  db
    .select()
    .from(schema.deliveries)
    .where(eq(schema.deliveries.channel, 'mail'))
    .orderBy(asc(schema.deliveries.id))

describe('mail on Workers', () => {
  it('has the start write mail_outbox with its settings: on with SMTP_URL and sockets, off without', async () => {
    const db = drizzle(local.d1(), { schema }) as unknown as Db
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
      SMTP_URL: 'smtp://127.0.0.1:2525',
      MERCHANT_EMAIL: 'owner@boutique.test',
    }
    const mailSettings = async () =>
      (await db.select().from(schema.settings))
        .filter((r) => r.key.startsWith('mail_'))
        .map((r) => [r.key, r.value])
        .sort()
    const run = async (worker: ReturnType<typeof createWorker>, vars: Record<string, unknown>) => {
      await worker.scheduled({} as ScheduledController, vars as typeof env, ctx)
      while (waits.length > 0) await Promise.allSettled(waits.splice(0))
    }
    const simulator = () => import('../../src/simulator/index.js')
    await run(
      createWorker({ app: createApp, loadSimulator: simulator, smtpConnect: nodeSmtpConnect() }),
      env,
    )
    expect(await mailSettings()).toEqual([
      ['mail_notices', 'each'],
      ['mail_outbox', 'on'],
    ])
    const { SMTP_URL: _, ...withoutSmtp } = env
    await run(
      createWorker({ app: createApp, loadSimulator: simulator, smtpConnect: nodeSmtpConnect() }),
      withoutSmtp,
    )
    expect(await mailSettings()).toEqual([
      ['mail_notices', 'off'],
      ['mail_outbox', 'off'],
    ])
    await paid(db, 1)
    expect(await mailRows(db)).toEqual([])
  }, 60_000)

  it('has the trigger write the receipt and the notice as two rows once switched on', async () => {
    const db = drizzle(local.d1(), { schema }) as unknown as Db
    await db
      .insert(schema.settings)
      .values([
        { key: 'mail_outbox', value: 'on', createdAt: 0 },
        { key: 'mail_notices', value: 'each', createdAt: 0 },
      ])
      .onConflictDoUpdate({ target: schema.settings.key, set: { value: sql`excluded.value` } })
    const id = await paid(db, 2)
    const rows = await mailRows(db)
    expect(rows.map((r) => [r.paymentId, r.mailKind, r.type, r.state])).toEqual([
      [id, 'customer_receipt', 'payment.paid', 'pending'],
      [id, 'merchant_notice', 'payment.paid', 'pending'],
    ])
  }, 60_000)

  it('sends the daily digest from the Cron trigger once the Algiers day is over, once', async () => {
    const db = drizzle(local.d1(), { schema }) as unknown as Db
    const inbox = await startInbox()
    try {
      await paid(db, 3)
      const today = toAlgiersIso(Date.now()).slice(0, 10)
      // The Cron runs of the next day: the first one sends the digest of today.
      let now = Date.now() + 24 * 60 * 60_000
      const worker = createWorker({
        app: createApp,
        loadSimulator: () => import('../../src/simulator/index.js'),
        smtpConnect: nodeSmtpConnect(),
        clock: () => now,
      })
      const waits: Promise<unknown>[] = []
      const ctx = {
        waitUntil: (p: Promise<unknown>) => waits.push(p),
        passThroughOnException() {},
        props: {},
      } as unknown as ExecutionContext
      const env = {
        DB: local.d1(),
        // The e-mails' texts come from the static assets.
        ASSETS: await assetsBinding(),
        ADMIN_TOKEN: WORKER_ADMIN_TOKEN,
        GATEWAY_MODE: 'simulator',
        PUBLIC_URL: 'http://127.0.0.1:8787',
        CAPTCHA: 'off',
        SMTP_URL: inbox.url,
        MERCHANT_EMAIL: 'owner@boutique.test',
        MERCHANT_NOTIFY: 'daily',
        DEFAULT_LANGUAGE: 'en',
      }
      const cron = async () => {
        await worker.scheduled({} as ScheduledController, env, ctx)
        while (waits.length > 0) await Promise.allSettled(waits.splice(0))
      }
      const digests = () =>
        inbox.received.filter((m) => m.subject?.startsWith('Payments received on'))
      await cron()
      expect(digests()).toHaveLength(1)
      expect(digests()[0]?.text).toContain('Consultation')
      now += 60_000
      await cron()
      expect(digests()).toHaveLength(1)
      const [mark] = await db
        .select()
        .from(schema.settings)
        .where(eq(schema.settings.key, 'mail_digest_day'))
      expect(mark?.value).toBe(today)
    } finally {
      await inbox.close()
    }
  }, 60_000)
})
