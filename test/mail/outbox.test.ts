/**
 * A paid payment's e-mails leave through the outbox: Paylinks started with SMTP_URL pointing at a
 * real SMTP server on loopback, the customer paying through the checkout and the simulator, the
 * sender run as its timer would. Each e-mail is its own mail row, sent once.
 */
import { asc, eq } from 'drizzle-orm'
import { afterEach, describe, expect, it } from 'vitest'
import { deliveries, deliveryAttempts, settings } from '../../db/schema.js'
import { RETRY_DELAYS_MS } from '../../src/outbox/schedule.js'
import { CUSTOMER, startPayment } from '../flows/support.js'
import { type Paylinks, startPaylinks } from '../support/harness.js'
import { makeLink } from '../support/links.js'
import { T0 } from '../support/manual-time.js'
import { type Inbox, startInbox } from './support.js'

const OWNER = 'owner@boutique.test'
let now = T0
let p: Paylinks | undefined
let inbox: Inbox | undefined
let logged: Array<Record<string, unknown>> = []

afterEach(async () => {
  await p?.close()
  await inbox?.close()
  p = undefined
  inbox = undefined
})

async function start(env: Record<string, string> = {}, smtp = true) {
  now = T0
  logged = []
  inbox = await startInbox()
  p = await startPaylinks({
    clock: () => now,
    log: (entry) => logged.push(entry),
    env: {
      ...(smtp ? { SMTP_URL: inbox.url } : {}),
      MAIL_FROM: 'Boutique Test <receipts@boutique.test>',
      MERCHANT_EMAIL: OWNER,
      MERCHANT_NOTIFY: 'each',
      DEFAULT_LANGUAGE: 'fr',
      ...env,
    },
  })
  return { p, inbox }
}

/** A customer pays a link through the checkout; the confirmation kicks the sender. */
async function pay(p: Paylinks, ref = 'CMD-1') {
  const link = await makeLink(p, { title: 'Abonnement Gold', amount: 1500, language: 'en' })
  const { tx, payment } = await startPayment(p, link.slug, { ref })
  await p.simulator.completePayment(tx.cibTransactionId, 'approved')
  await p.settle()
  return payment
}

const mailRows = (p: Paylinks) =>
  p.deps.db
    .select()
    .from(deliveries)
    .where(eq(deliveries.channel, 'mail'))
    .orderBy(asc(deliveries.id))

const attemptsOf = (p: Paylinks, id: number) =>
  p.deps.db.select().from(deliveryAttempts).where(eq(deliveryAttempts.deliveryId, id))

const recipients = (inbox: Inbox) => inbox.received.map((m) => m.to && 'text' in m.to && m.to.text)

describe('a paid payment’s e-mails through the outbox', () => {
  it('sends the customer the receipt with its PDF and the merchant the notice, once each even when the sender runs again', async () => {
    const { p, inbox } = await start()
    const payment = await pay(p)
    await p.deps.outbound.run()
    now += 60 * 60_000
    await p.deps.outbound.run()
    expect(recipients(inbox).sort()).toEqual([CUSTOMER.email, OWNER].sort())
    const receipt = inbox.received.find((m) => recipients({ received: [m] } as Inbox)[0] !== OWNER)
    expect(receipt?.attachments.map((a) => a.contentType)).toEqual(['application/pdf'])
    expect(receipt?.attachments[0]?.content.subarray(0, 4).toString()).toBe('%PDF')
    const rows = await mailRows(p)
    expect(rows.map((r) => [r.mailKind, r.paymentId, r.state, r.attempts])).toEqual([
      ['customer_receipt', payment.id, 'delivered', 1],
      ['merchant_notice', payment.id, 'delivered', 1],
    ])
    expect(logged.filter((l) => l.event === 'mail_out')).toHaveLength(2)
    expect(JSON.stringify(logged)).not.toContain(CUSTOMER.email)
  })

  it('queues only the receipt when the merchant’s notices are daily', async () => {
    const { p, inbox } = await start({ MERCHANT_NOTIFY: 'daily' })
    await pay(p)
    expect((await mailRows(p)).map((r) => r.mailKind)).toEqual(['customer_receipt'])
    expect(recipients(inbox)).toEqual([CUSTOMER.email])
  })

  it('tries again on the outbox’s schedule while the SMTP server is down, and sends once it is up', async () => {
    const { p, inbox: first } = await start()
    const port = first.port
    await first.close()
    await pay(p)
    let rows = await mailRows(p)
    expect(rows.map((r) => [r.state, r.attempts, r.nextAttemptAt])).toEqual([
      ['pending', 1, now + RETRY_DELAYS_MS[0]!],
      ['pending', 1, now + RETRY_DELAYS_MS[0]!],
    ])
    expect(rows[0]?.lastError).toMatch(/ECONNECTION|ESOCKET|ECONNREFUSED/)
    // Not due yet: nothing is tried.
    now += RETRY_DELAYS_MS[0]! - 1
    await p.deps.outbound.run()
    expect((await mailRows(p)).map((r) => r.attempts)).toEqual([1, 1])
    inbox = await startInbox(port)
    now += 1
    await p.deps.outbound.run()
    await p.deps.outbound.run()
    expect(recipients(inbox).sort()).toEqual([CUSTOMER.email, OWNER].sort())
    rows = await mailRows(p)
    expect(rows.map((r) => [r.state, r.attempts, r.lastError])).toEqual([
      ['delivered', 2, null],
      ['delivered', 2, null],
    ])
    const log = await attemptsOf(p, rows[0]!.id)
    expect(log.map((a) => a.error === null)).toEqual([false, true])
  })

  it('gives an e-mail up at once when the server refuses it for good (5xx), and still sends the other', async () => {
    const { p, inbox } = await start()
    inbox.rejectRecipient = CUSTOMER.email
    await pay(p)
    now += 10 * 60_000
    await p.deps.outbound.run()
    const rows = await mailRows(p)
    expect(rows.map((r) => [r.mailKind, r.state, r.attempts, r.lastStatus])).toEqual([
      ['customer_receipt', 'failed', 1, 550],
      ['merchant_notice', 'delivered', 1, null],
    ])
    expect(rows[0]?.lastError).toContain('EENVELOPE')
    expect(rows[0]?.lastError).not.toContain(CUSTOMER.email)
    expect(recipients(inbox)).toEqual([OWNER])
  })

  it('queues no mail without SMTP_URL, and a start without it turns off what an earlier one turned on', async () => {
    const { p } = await start({}, false)
    await pay(p)
    expect(await mailRows(p)).toEqual([])
    await p.deps.db.update(settings).set({ value: 'on' }).where(eq(settings.key, 'mail_outbox'))
    const restarted = await startPaylinks({ databasePath: p.deps.config.databasePath })
    const [outbox] = await restarted.deps.db
      .select()
      .from(settings)
      .where(eq(settings.key, 'mail_outbox'))
    await restarted.close()
    expect(outbox?.value).toBe('off')
  })
})
