/**
 * E-mail receipts and merchant notices sent through a real SMTP server on loopback, and read back
 * with mailparser.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { Payment } from '../../db/schema.js'
import { getPaymentById } from '../../src/data/payments.js'
import { formatAmount } from '../../src/i18n/index.js'
import {
  deliverMerchantDigest,
  deliverPaymentMails,
  type MailDeps,
} from '../../src/mail/deliver.js'
import { mailWordsInCode } from '../../src/mail/messages.js'
import { writeMailSettings } from '../../src/mail/outbox-channel.js'
import { nodemailerTransport } from '../../src/runtime/node/mail-transport.js'
import { CUSTOMER, startPayment } from '../flows/support.js'
import { type Paylinks, startPaylinks } from '../support/harness.js'
import { makeLink } from '../support/links.js'
import { type Inbox, startInbox } from './support.js'

let inbox: Inbox
let p: Paylinks
let deps: MailDeps
let logged: Array<Record<string, unknown>>
let close: () => void

beforeAll(async () => {
  inbox = await startInbox()
  p = await startPaylinks({
    env: {
      SMTP_URL: inbox.url,
      MAIL_FROM: 'Boutique Test <receipts@boutique.test>',
      MERCHANT_EMAIL: 'owner@boutique.test',
      MERCHANT_NOTIFY: 'each',
      DEFAULT_LANGUAGE: 'fr',
    },
  })
  // These tests call the senders themselves: the outbox queues nothing here (see outbox.test.ts).
  await writeMailSettings(p.deps.db, p.deps.config.mail, false, Date.now())
  const transport = nodemailerTransport(p.deps.config.mail!)
  close = transport.close
  deps = {
    db: p.deps.db,
    config: p.deps.config,
    transport,
    mailWords: mailWordsInCode,
    receiptPdf: p.deps.receiptPdf,
    log: (entry) => logged.push(entry),
  }
})
afterAll(async () => {
  close()
  await p.close()
  await inbox.close()
})
beforeEach(() => {
  inbox.received.length = 0
  inbox.refuse = null
  logged = []
})

async function paid(language: string): Promise<Payment> {
  const link = await makeLink(p, { title: 'Abonnement Gold', amount: 1500.5, language })
  const { tx, payment } = await startPayment(p, link.slug, { ref: 'CMD-77' })
  await p.simulator.completePayment(tx.cibTransactionId, 'approved')
  await p.settle()
  const settled = await getPaymentById(p.deps.db, payment.id)
  if (settled?.status !== 'paid') throw new Error('the payment did not settle')
  return settled
}

describe('the receipt e-mail to the customer', () => {
  const subjects = { ar: 'وصل الدفع', fr: 'Votre reçu', en: 'Your receipt' }
  for (const lang of ['ar', 'fr', 'en'] as const) {
    it(`is sent in ${lang}, the checkout's language, with both parts, the link and the PDF`, async () => {
      const payment = await paid(lang)
      expect(await deliverPaymentMails(deps, payment.id, 'customer_receipt')).toBe('sent')
      expect(inbox.received).toHaveLength(1)
      const mail = inbox.received[0]!
      const amount = formatAmount(payment.amount, lang)
      expect(mail.to).toMatchObject({ text: CUSTOMER.email })
      expect(mail.from?.value[0]).toMatchObject({
        name: 'Boutique Test',
        address: 'receipts@boutique.test',
      })
      expect(mail.subject).toContain(subjects[lang])
      expect(mail.subject).toContain(amount)
      const html = String(mail.html)
      expect(html).toContain(`lang="${lang}" dir="${lang === 'ar' ? 'rtl' : 'ltr'}"`)
      expect(html).toContain(`<body dir="${lang === 'ar' ? 'rtl' : 'ltr'}"`)
      for (const part of [html, mail.text ?? '']) {
        expect(part).toContain(amount)
        expect(part).toContain(payment.approvalCode ?? 'missing')
        expect(part).toContain(payment.orderNumber ?? 'missing')
        expect(part).toContain('CMD-77')
        expect(part).toContain(`${p.url}/r/${payment.receiptId}?lang=${lang}`)
      }
      expect(mail.attachments).toHaveLength(1)
      const pdf = mail.attachments[0]!
      expect(pdf.contentType).toBe('application/pdf')
      expect(pdf.filename).toMatch(/^receipt-[\w-]+\.pdf$/)
      expect(pdf.content.subarray(0, 5).toString('latin1')).toBe('%PDF-')
    })
  }

  it('escapes what a merchant or customer typed', async () => {
    const link = await makeLink(p, { title: '<b>Offre</b> & "plus"', amount: 100, language: 'en' })
    const { tx, payment } = await startPayment(p, link.slug)
    await p.simulator.completePayment(tx.cibTransactionId, 'approved')
    await p.settle()
    await deliverPaymentMails(deps, payment.id, 'customer_receipt')
    const html = String(inbox.received[0]?.html)
    expect(html).toContain('&lt;b&gt;Offre&lt;/b&gt; &amp; &quot;plus&quot;')
    expect(html).not.toContain('<b>Offre')
  })

  it('is not sent for a payment that is not paid', async () => {
    const link = await makeLink(p, { title: 'Atelier', amount: 800, language: 'en' })
    const { payment } = await startPayment(p, link.slug)
    expect(await deliverPaymentMails(deps, payment.id, 'customer_receipt')).toBe('skipped')
    expect(await deliverPaymentMails(deps, 'pay_unknown', 'merchant_notice')).toBe('skipped')
    expect(inbox.received).toHaveLength(0)
  })

  it('throws when the server refuses, so the outbox tries again', async () => {
    const payment = await paid('en')
    inbox.refuse = 'Mailbox busy, try later'
    await expect(deliverPaymentMails(deps, payment.id, 'customer_receipt')).rejects.toThrow()
    expect(inbox.received).toHaveLength(0)
    inbox.refuse = null
    expect(await deliverPaymentMails(deps, payment.id, 'customer_receipt')).toBe('sent')
  })

  it('logs no customer data', async () => {
    const payment = await paid('ar')
    await deliverPaymentMails(deps, payment.id, 'customer_receipt')
    await deliverPaymentMails(deps, payment.id, 'merchant_notice')
    const lines = JSON.stringify(logged)
    expect(logged.map((l) => l.event)).toEqual(['mail_sent', 'mail_sent'])
    for (const secret of [CUSTOMER.email, CUSTOMER.name, CUSTOMER.phone, 'p@ss', 'owner@'])
      expect(lines).not.toContain(secret)
  })
})

describe('the notice to the merchant', () => {
  it('goes to MERCHANT_EMAIL in the default language with whom to reach', async () => {
    const payment = await paid('ar')
    expect(await deliverPaymentMails(deps, payment.id, 'merchant_notice')).toBe('sent')
    const mail = inbox.received[0]!
    expect(mail.to).toMatchObject({ text: 'owner@boutique.test' })
    expect(mail.subject).toBe(
      `Paiement reçu : ${formatAmount(payment.amount, 'fr')} — Abonnement Gold`,
    )
    expect(mail.text).toContain(CUSTOMER.email)
    expect(mail.text).toContain(CUSTOMER.phone)
    expect(String(mail.html)).toContain('dir="ltr"')
    expect(mail.attachments).toHaveLength(0)
  })

  it('is left to the digest when MERCHANT_NOTIFY is daily, which lists the day’s payments', async () => {
    const payment = await paid('en')
    const daily = {
      ...deps,
      config: { ...deps.config, mail: { ...deps.config.mail!, merchantNotify: 'daily' as const } },
    }
    expect(await deliverPaymentMails(daily, payment.id, 'merchant_notice')).toBe('skipped')
    expect(inbox.received).toHaveLength(0)
    const paidAt = payment.paidAt ?? 0
    // The window of this payment's millisecond: the other tests' payments are paid around it.
    expect(await deliverMerchantDigest(daily, paidAt, paidAt + 1)).toBe('sent')
    const mail = inbox.received[0]!
    expect(mail.to).toMatchObject({ text: 'owner@boutique.test' })
    // One wording for every count (no "1 paiements").
    expect(mail.subject).toMatch(/^Paiements reçus le .* : 1, /)
    expect(mail.text).toContain(payment.orderNumber ?? 'missing')
    expect(await deliverMerchantDigest(deps, paidAt, paidAt + 1)).toBe('skipped')
  })
})
