/**
 * E-mail from the Worker: workerd (miniflare) with a local D1 migrated by wrangler, the built-in
 * simulator, SMTP_URL pointing at a real SMTP server on loopback reached through
 * `cloudflare:sockets`. A customer pays through the checkout; the Cron trigger sends the outbox's
 * mail rows; what the server received is parsed by mailparser.
 */
import { asc, eq } from 'drizzle-orm'
import { drizzle } from 'drizzle-orm/d1'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import * as schema from '../../db/schema.js'
import { deliveries, links, payments, settings } from '../../db/schema.js'
import type { Db } from '../../src/data/db.js'
import { formatAmount } from '../../src/i18n/index.js'
import type { Centimes } from '../../src/lib/money.js'
import { MAIL_TABLES, mailText } from '../../src/mail/messages.js'
import { type Inbox, startInbox } from '../mail/support.js'
import {
  formAction,
  inputValue,
  postForm,
  startWorker,
  WORKER_ADMIN_TOKEN,
  type WorkerPaylinks,
} from './support.js'

const OWNER = 'owner@boutique.test'
const CUSTOMER = 'amina@example.dz'
let w: WorkerPaylinks
let inbox: Inbox
let ip = 0

const MAIL_VARS = {
  MAIL_FROM: 'Boutique Test <receipts@boutique.test>',
  MERCHANT_EMAIL: OWNER,
  MERCHANT_NOTIFY: 'each',
  DEFAULT_LANGUAGE: 'fr',
}

beforeAll(async () => {
  inbox = await startInbox()
  w = await startWorker({ SMTP_URL: inbox.url, ...MAIL_VARS })
}, 180_000)

afterAll(async () => {
  await w?.close()
  await inbox?.close()
})

/** A customer pays a new 1 500 DZD link through the checkout and the simulator's card page. */
async function pay(lang: 'ar' | 'fr' | 'en'): Promise<string> {
  const created = await fetch(`${w.url}/api/v1/links`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': WORKER_ADMIN_TOKEN },
    body: JSON.stringify({ title: 'Abonnement Gold', amount: 1500, language: lang }),
  })
  expect(created.status).toBe(201)
  const { slug } = (await created.json()) as { slug: string }
  const form = await (await fetch(`${w.url}/l/${slug}`)).text()
  const fields = {
    name: 'Amina Benali',
    phone: '0555123456',
    email: CUSTOMER,
    terms: 'on',
    csrf: inputValue(form, 'csrf'),
    lang,
  }
  const submitted = await postForm(`${w.url}/l/${slug}`, fields, {
    'cf-connecting-ip': `198.51.100.${++ip}`,
  })
  expect(submitted.status).toBe(303)
  const card = await (await fetch(submitted.headers.get('location')!)).text()
  const afterCard = await postForm(new URL(formAction(card, '/card'), w.url).href, {
    pan: '6280580000000009',
    expiry: '12/30',
    cvv: '123',
  })
  const otp = await (await fetch(new URL(afterCard.headers.get('location')!, w.url))).text()
  const afterOtp = await postForm(new URL(formAction(otp, '/otp'), w.url).href, { otp: '123456' })
  await fetch(new URL(afterOtp.headers.get('location')!, w.url))
  const [link] = await w.db.select().from(links).where(eq(links.slug, slug))
  let id = ''
  await expect
    .poll(
      async () => {
        const [payment] = await w.db.select().from(payments).where(eq(payments.linkId, link!.id))
        id = payment?.id ?? ''
        return payment?.status
      },
      { timeout: 10_000 },
    )
    .toBe('paid')
  return id
}

const rowsOf = (paymentId: string) =>
  w.db
    .select()
    .from(deliveries)
    .where(eq(deliveries.paymentId, paymentId))
    .orderBy(asc(deliveries.id))

const addressOf = (m: Inbox['received'][number]) => (m.to && 'text' in m.to ? m.to.text : '')

describe('e-mail from the Worker over SMTP (cloudflare:sockets)', () => {
  it('sends the receipt in Arabic (right to left, both parts, the HTML receipt attached) and the merchant’s notice, once each', async () => {
    const id = await pay('ar')
    await w.cron()
    await expect.poll(() => inbox.received.length, { timeout: 15_000 }).toBe(2)
    await w.cron()
    const rows = await rowsOf(id)
    expect(rows.map((r) => [r.channel, r.mailKind, r.state, r.attempts])).toEqual([
      ['mail', 'customer_receipt', 'delivered', 1],
      ['mail', 'merchant_notice', 'delivered', 1],
    ])
    expect(inbox.received).toHaveLength(2)
    // The Worker's start told the triggers to queue both e-mails.
    const written = await w.db.select().from(settings)
    expect(written.filter((r) => r.key.startsWith('mail_')).map((r) => [r.key, r.value])).toEqual(
      expect.arrayContaining([
        ['mail_outbox', 'on'],
        ['mail_notices', 'each'],
      ]),
    )

    const [payment] = await w.db.select().from(payments).where(eq(payments.id, id))
    const amountAr = formatAmount(150000 as Centimes, 'ar')
    const receipt = inbox.received.find((m) => addressOf(m) === CUSTOMER)!
    expect(receipt.subject).toBe(
      mailText(MAIL_TABLES.ar)('receiptSubject', {
        amount: amountAr,
        merchant: 'Paylinks merchant',
      }),
    )
    expect(receipt.from?.value).toEqual([
      { name: 'Boutique Test', address: 'receipts@boutique.test' },
    ])
    expect(receipt.html).toContain('dir="rtl"')
    expect(receipt.html).toContain(amountAr)
    expect(receipt.text).toContain(amountAr)
    expect(receipt.text).toContain(payment!.approvalCode!)
    expect(receipt.text).toContain(`${w.url}/r/${payment!.receiptId}?lang=ar`)
    expect(receipt.text).toContain(mailText(MAIL_TABLES.ar)('receiptHtml'))
    expect(receipt.attachments.map((a) => [a.filename, a.contentType])).toEqual([
      [`receipt-${payment!.receiptId}.html`, 'text/html'],
    ])
    const file = receipt.attachments[0]!.content.toString('utf8')
    expect(file).toContain('dir="rtl"')
    expect(file).toContain(payment!.approvalCode!)
    expect(file).not.toContain('<script')

    const notice = inbox.received.find((m) => addressOf(m) === OWNER)!
    expect(notice.subject).toBe(
      mailText(MAIL_TABLES.fr)('noticeSubject', {
        amount: formatAmount(150000 as Centimes, 'fr'),
        title: 'Abonnement Gold',
      }),
    )
    expect(notice.html).toContain('dir="ltr"')
    expect(notice.text).toContain(CUSTOMER)
    // The Worker's logs name the kind and the payment, never the customer.
    expect(w.logs.some((line) => line.includes('"mail_sent"'))).toBe(true)
    expect(w.logs.join('\n')).not.toContain(CUSTOMER)
  })

  it('gives a receipt up on a 5xx to its recipient and still sends the notice', async () => {
    inbox.received.length = 0
    inbox.rejectRecipient = CUSTOMER
    try {
      const id = await pay('en')
      await w.cron()
      await expect
        .poll(async () => (await rowsOf(id)).map((r) => [r.mailKind, r.state, r.lastStatus]), {
          timeout: 15_000,
        })
        .toEqual([
          ['customer_receipt', 'failed', 550],
          ['merchant_notice', 'delivered', null],
        ])
      const [row] = await rowsOf(id)
      expect(row?.lastError).toMatch(/EENVELOPE: 550/)
      expect(row?.lastError).not.toContain(CUSTOMER)
      expect(inbox.received.map(addressOf)).toEqual([OWNER])
    } finally {
      inbox.rejectRecipient = null
    }
  })

  it('retries while the SMTP server is down and sends once when it is back', async () => {
    const port = inbox.port
    await inbox.close()
    const id = await pay('fr')
    await w.cron()
    await expect
      .poll(async () => (await rowsOf(id)).map((r) => [r.state, r.attempts > 0]), {
        timeout: 15_000,
      })
      .toEqual([
        ['pending', true],
        ['pending', true],
      ])
    const failed = await rowsOf(id)
    expect(failed[0]?.lastError).toMatch(/ECONNECTION/)
    inbox = await startInbox(port)
    // The first retry is due 5 s after the failure.
    const due = Math.max(...failed.map((r) => r.nextAttemptAt ?? 0))
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, due - Date.now() + 50)))
    await w.cron()
    await expect
      .poll(async () => (await rowsOf(id)).map((r) => r.state), { timeout: 15_000 })
      .toEqual(['delivered', 'delivered'])
    await w.cron()
    expect(inbox.received.map(addressOf).sort()).toEqual([CUSTOMER, OWNER].sort())
    expect((await rowsOf(id)).every((r) => r.attempts >= 2)).toBe(true)
  }, 60_000)

  it('queues nothing once started without SMTP_URL', async () => {
    await w.restart({ ...MAIL_VARS })
    // The old stubs die with the restart: the same D1 through the new one.
    w.db = drizzle(await w.mf.getD1Database('DB'), { schema }) as unknown as Db
    const id = await pay('en')
    await w.cron()
    expect((await rowsOf(id)).filter((r) => r.channel === 'mail')).toEqual([])
    const [outbox] = await w.db.select().from(settings).where(eq(settings.key, 'mail_outbox'))
    expect(outbox?.value).toBe('off')
  })
})
