/**
 * `GET /r/:receiptId`: where the card page sends the customer back. The query string is never
 * trusted: a signature, when present, is verified and logged, and the outcome is confirmed through
 * the check endpoint before the receipt or the failure page is shown.
 */

import type { Context } from 'hono'
import { Hono } from 'hono'
import type { Checkout, Payment } from '../../db/schema.js'
import { PaymentOutcomePage, ReceiptPage, type ReceiptView } from '../../views/receipt.js'
import { parseReturnQuery } from '../client/index.js'
import type { Language } from '../config.js'
import { getBrandLogo } from '../data/branding.js'
import { getCheckoutById } from '../data/checkouts.js'
import { receiptDeposit } from '../data/deposits.js'
import { getLinkById } from '../data/links.js'
import { getPaymentByReceiptId } from '../data/payments.js'
import type { AppEnv } from '../deps.js'
import { type ReceiptPdfInput, receiptView } from '../domain/receipt-view.js'
import { RECEIPT_PARAM } from '../domain/return-url.js'
import { shopUrl } from '../domain/shop-urls.js'
import { describe } from '../lib/describe-error.js'
import { adoptOnReturn } from '../payments/adopt.js'
import { confirmPayment } from '../payments/confirm.js'
import { retryHref } from './checkout-retry.js'
import { notFoundPage } from './error-pages.js'
import { pageContext, pageLanguage } from './page.js'

export const receiptRoutes = new Hono<AppEnv>()

receiptRoutes.get('/r/:receiptId', async (c) => {
  let payment = await getPaymentByReceiptId(c.get('db'), c.req.param('receiptId'))
  if (!payment) return notFoundPage(c)
  const callback = parseReturnQuery(new URL(c.req.url).searchParams)
  if (callback.signature && callback.message) {
    const valid = await c.get('verifySignature')(callback.message, callback.signature)
    if (!valid)
      c.get('log')({ level: 'warn', event: 'return_signature_invalid', payment_id: payment.id })
  }
  // The transaction named here may be one whose ids a crash kept from being stored: adopted only
  // when the check endpoint vouches for it (amount, account); the query alone decides nothing.
  const adopted = await adoptOnReturn(c.var, payment, {
    cibTransactionId: callback.cib_transaction_id,
    transactionId: callback.transaction_id,
  })
  if (adopted) payment = adopted
  else if (shouldConfirm(payment, callback.payment_status)) {
    try {
      payment = (await confirmPayment(c.var, payment, 'return')).payment
    } catch (error) {
      // The gateway is unreachable: show "being confirmed"; the webhook or reconciler will settle it.
      c.get('log')({
        level: 'warn',
        event: 'return_confirm_failed',
        payment_id: payment.id,
        error: String((error as Error)?.name),
      })
    }
  }
  const checkout = payment.checkoutId
    ? await getCheckoutById(c.get('db'), payment.checkoutId)
    : null
  // A shop's customer coming back from the card page goes on to the shop once the outcome is
  // known here (confirmed through the check endpoint, by this request or an earlier one): paid to
  // its success_url, canceled on the card page to its cancel_url. Every other visit of the receipt
  // (the e-mail's link, a reload, Refresh) shows the page, with its way back to the shop.
  const back = checkout && isGatewayReturn(c, payment) ? returnToShop(payment, checkout) : null
  if (back) {
    c.header('Cache-Control', 'no-store')
    return c.redirect(back, 303)
  }
  return renderReceipt(c, payment, checkout)
})

/**
 * The request is the card page sending the customer back: its address is the return URL given to
 * the gateway, which names the receipt in its query (return-url.ts); the receipt's other links
 * (e-mail, language switcher, Refresh) do not. Pending pages reload this same address, so a
 * payment confirmed while the customer waits goes on to the shop as well.
 */
function isGatewayReturn(c: Context<AppEnv>, payment: Payment): boolean {
  return new URL(c.req.url).searchParams.get(RECEIPT_PARAM) === payment.receiptId
}

/** Where a checkout's payment sends its customer back to the shop from the card page, if anywhere. */
function returnToShop(payment: Payment, checkout: Checkout): string | null {
  if (payment.status === 'paid') return shopUrl(checkout.successUrl, checkout.id)
  if (payment.status === 'canceled') return shopUrl(checkout.cancelUrl, checkout.id)
  return null
}

/**
 * `GET /r/:receiptId/download`: the receipt as a PDF where the runtime makes them (Node, see
 * docs/decisions/pdf-receipt.md), else as a self-contained HTML file to keep or print. Only for
 * paid payments.
 */
receiptRoutes.get('/r/:receiptId/download', async (c) => {
  const payment = await getPaymentByReceiptId(c.get('db'), c.req.param('receiptId'))
  if (payment?.status !== 'paid') return notFoundPage(c)
  const link = await getLinkById(c.get('db'), payment.linkId)
  const lang = pageLanguage(c, payment.language)
  const view = {
    ...receiptView(payment, link?.title ?? '', link?.slug ?? '', null, null, link?.customFields),
    deposit: await receiptDeposit(c.get('db'), payment, link),
  }
  const name = `receipt-${payment.orderNumber ?? payment.receiptId}`.replace(/[^\w.-]/g, '_')
  c.header('Cache-Control', 'no-store')
  const pdf = await receiptPdf(c, view, lang, link?.invoiceItems ?? null)
  if (pdf) {
    c.header('Content-Type', 'application/pdf')
    c.header('Content-Disposition', `attachment; filename="${name}.pdf"`)
    return c.body(pdf as Uint8Array<ArrayBuffer>)
  }
  const ctx = { ...pageContext(c, lang, false), download: true }
  c.header('Content-Disposition', `attachment; filename="${name}.html"`)
  return c.html(<ReceiptPage ctx={ctx} receipt={view} />)
})

/** The receipt's PDF, or null where there is no PDF maker or it failed (then the HTML file). */
async function receiptPdf(
  c: Context<AppEnv>,
  receipt: ReceiptView,
  lang: Language,
  items: ReceiptPdfInput['items'],
) {
  const make = c.get('receiptPdf')
  if (!make) return null
  const config = c.get('config')
  const brand = c.get('brand').current()
  try {
    return await make({
      items,
      logo: await getBrandLogo(c.get('db')),
      lang,
      receipt,
      merchantName: brand.name,
      merchantContacts: brand.contacts,
      receiptFooter: brand.receiptFooter,
      testMode: config.gatewayMode !== 'live',
      receiptUrl: `${config.publicUrl}/r/${receipt.receiptId}?lang=${lang}`,
    })
  } catch (error) {
    c.get('log')({ level: 'error', event: 'receipt_pdf_failed', error: describe(error) })
    return null
  }
}

/** Re-check unsettled payments, and settled unpaid ones the gateway says succeeded. */
function shouldConfirm(payment: Payment, claimed: string | undefined): boolean {
  if (payment.status === 'initiated' || payment.status === 'pending') return true
  return payment.status !== 'paid' && payment.status !== 'error' && claimed === 'success'
}

async function renderReceipt(c: Context<AppEnv>, payment: Payment, checkout: Checkout | null) {
  const link = await getLinkById(c.get('db'), payment.linkId)
  const lang = pageLanguage(c, payment.language)
  const ctx = pageContext(c, lang)
  const view = {
    ...receiptView(
      payment,
      link?.title ?? '',
      link?.slug ?? '',
      link?.successMessage ?? null,
      link?.successUrl ?? null,
      link?.customFields,
    ),
    deposit: await receiptDeposit(c.get('db'), payment, link),
  }
  c.header('Cache-Control', 'no-store')
  if (payment.status === 'paid')
    return c.html(
      <ReceiptPage
        ctx={ctx}
        receipt={view}
        pdf={c.get('receiptPdf') !== undefined}
        shopUrl={checkout && shopUrl(checkout.successUrl, checkout.id)}
      />,
    )
  const retryUrl = link ? retryHref(link.slug, lang, payment.receiptId) : '/'
  return c.html(
    <PaymentOutcomePage
      ctx={ctx}
      receipt={view}
      retryUrl={retryUrl}
      shopUrl={checkout && shopUrl(checkout.cancelUrl, checkout.id)}
    />,
  )
}
