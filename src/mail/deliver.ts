/**
 * What the outbox's sender calls once a payment is paid: reads the payment and its link, composes
 * the e-mail and sends it. A transport error is thrown, so the sender tries again; a message that
 * must not be sent (mail off, not paid, notices off) is skipped, not an error.
 */
import { and, asc, eq, gte, lt } from 'drizzle-orm'
import { links, payments } from '../../db/schema.js'
import type { Config } from '../config.js'
import { getBranding, getBrandLogo } from '../data/branding.js'
import type { Db } from '../data/db.js'
import { receiptDeposit } from '../data/deposits.js'
import { getLinkById } from '../data/links.js'
import { getPaymentById } from '../data/payments.js'
import type { ReceiptPdfMaker } from '../deps.js'
import { resolveBrand } from '../domain/brand.js'
import { receiptView } from '../domain/receipt-view.js'
import { describe } from '../lib/describe-error.js'
import type { Logger } from '../log.js'
import type { ReceiptPdfInput } from '../pdf/receipt-input.js'
import { composeCustomerReceipt, composeMerchantNotice, type ReceiptFile } from './compose.js'
import { composeMerchantDigest } from './digest.js'
import type { LoadMailWords } from './messages.js'
import type { MailTransport } from './types.js'

/** What sending needs; a subset of the app's dependencies plus the transport. */
export interface MailDeps {
  db: Db
  config: Config
  transport: MailTransport
  /** The e-mails' texts: in the code (Node) or from the static assets (Workers). */
  mailWords: LoadMailWords
  receiptPdf?: ReceiptPdfMaker | undefined
  /** The receipt as an HTML file, attached where there is no PDF (Workers) or it failed. */
  receiptHtml?: ((input: ReceiptPdfInput) => Promise<Uint8Array>) | undefined
  log: Logger
}

/** The receipt to the customer, or the notice to the merchant. */
export type PaymentMailKind = 'customer_receipt' | 'merchant_notice'

export type MailOutcome = 'sent' | 'skipped'

/** Sends one e-mail about a paid payment; resolves 'skipped' when there is nothing to send. */
export async function deliverPaymentMails(
  deps: MailDeps,
  paymentId: string,
  kind: PaymentMailKind,
): Promise<MailOutcome> {
  const mail = deps.config.mail
  const skip = (reason: string): MailOutcome => {
    deps.log({ event: 'mail_skipped', kind, payment_id: paymentId, reason })
    return 'skipped'
  }
  if (!mail) return skip('mail_off')
  const payment = await getPaymentById(deps.db, paymentId)
  if (payment?.status !== 'paid') return skip('not_paid')
  const link = await getLinkById(deps.db, payment.linkId)
  const receipt = {
    ...receiptView(payment, link?.title ?? '', link?.slug ?? '', null, null, link?.customFields),
    deposit: await receiptDeposit(deps.db, payment, link),
  }
  const { config } = deps
  const brand = resolveBrand(await getBranding(deps.db), config)
  const testMode = config.gatewayMode !== 'live'
  let message: ReturnType<typeof composeCustomerReceipt>
  if (kind === 'customer_receipt') {
    const lang = payment.language
    const receiptUrl = `${config.publicUrl}/r/${payment.receiptId}?lang=${lang}`
    const pdfInput = {
      lang,
      merchantName: brand.name,
      merchantContacts: brand.contacts,
      receiptFooter: brand.receiptFooter,
      testMode,
      receipt,
      receiptUrl,
      items: link?.invoiceItems ?? null,
      // Read only where a PDF is made (Node): the HTML file is made without these bytes.
      logo: deps.receiptPdf ? await getBrandLogo(deps.db) : null,
    }
    message = composeCustomerReceipt({
      ...pdfInput,
      to: payment.customerEmail,
      file: await receiptFile(deps, pdfInput, paymentId),
      words: await deps.mailWords(lang),
    })
  } else {
    if (mail.merchantNotify !== 'each' || !mail.merchantEmail) return skip('notices_not_each')
    message = composeMerchantNotice({
      to: mail.merchantEmail,
      lang: brand.defaultLanguage,
      words: await deps.mailWords(brand.defaultLanguage),
      merchantName: brand.name,
      testMode,
      receipt,
      customer: {
        name: payment.customerName,
        email: payment.customerEmail,
        phone: payment.customerPhone,
      },
      dashboardUrl: `${config.publicUrl}/dashboard/payments?link=${payment.linkId}`,
    })
  }
  await deps.transport.send(message)
  deps.log({ event: 'mail_sent', kind, payment_id: paymentId })
  return 'sent'
}

/**
 * The file to attach: the PDF, else the HTML page where the runtime offers that (Workers); without
 * either (or both failed) the e-mail only links to the receipt.
 */
async function receiptFile(
  deps: MailDeps,
  input: ReceiptPdfInput,
  paymentId: string,
): Promise<ReceiptFile | null> {
  const makers = [
    ['pdf', deps.receiptPdf],
    ['html', deps.receiptHtml],
  ] as const
  for (const [type, make] of makers) {
    if (!make) continue
    try {
      return { type, content: await make(input) }
    } catch (error) {
      deps.log({
        level: 'error',
        event: `receipt_${type}_failed`,
        payment_id: paymentId,
        error: describe(error),
      })
    }
  }
  return null
}

/**
 * The merchant's digest of the payments paid in `[from, to)` (ms), when MERCHANT_NOTIFY is daily;
 * `day` names the period in the subject. Sent even when nothing was paid, so silence means trouble.
 */
export async function deliverMerchantDigest(
  deps: MailDeps,
  from: number,
  to: number,
): Promise<MailOutcome> {
  const mail = deps.config.mail
  if (mail?.merchantNotify !== 'daily' || !mail.merchantEmail) {
    deps.log({ event: 'mail_skipped', kind: 'merchant_digest', reason: 'notices_not_daily' })
    return 'skipped'
  }
  const rows = await deps.db
    .select({
      amount: payments.amount,
      paidAt: payments.paidAt,
      orderNumber: payments.orderNumber,
      title: links.title,
    })
    .from(payments)
    .innerJoin(links, eq(links.id, payments.linkId))
    .where(and(eq(payments.status, 'paid'), gte(payments.paidAt, from), lt(payments.paidAt, to)))
    .orderBy(asc(payments.paidAt))
    .limit(1000)
  const { config } = deps
  const brand = resolveBrand(await getBranding(deps.db), config)
  const words = await deps.mailWords(brand.defaultLanguage)
  await deps.transport.send(
    composeMerchantDigest({
      to: mail.merchantEmail,
      lang: brand.defaultLanguage,
      words,
      merchantName: brand.name,
      testMode: config.gatewayMode !== 'live',
      day: from,
      payments: rows.map((r) => ({ ...r, paidAt: r.paidAt ?? from })),
      dashboardUrl: `${config.publicUrl}/dashboard/payments?status=paid`,
    }),
  )
  deps.log({ event: 'mail_sent', kind: 'merchant_digest', payments: rows.length })
  return 'sent'
}
