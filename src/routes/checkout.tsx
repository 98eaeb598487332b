/** The customer's checkout: `GET /l/:slug` shows the link, `POST /l/:slug` starts the payment. */

import type { Context } from 'hono'
import { Hono } from 'hono'
import type { Checkout, Link } from '../../db/schema.js'
import { CheckoutPage, type CheckoutProps } from '../../views/checkout.js'
import { InvoicePaidPage } from '../../views/invoice-paid.js'
import { MessagePage } from '../../views/message-page.js'
import type { Language } from '../config.js'
import { getCheckoutByLinkId } from '../data/checkouts.js'
import { type LinkWithStats, readLinkBySlug } from '../data/links.js'
import { lastPaidAt } from '../data/payments.js'
import { hitRateLimit } from '../data/rate-limits.js'
import type { AppEnv } from '../deps.js'
import { MIN_AMOUNT } from '../domain/amount-bounds.js'
import { merchantTermsHref } from '../domain/brand.js'
import { quantityField } from '../domain/cart.js'
import { parseCheckoutForm } from '../domain/checkout-input.js'
import { answerValues } from '../domain/custom-fields.js'
import { depositView } from '../domain/deposit.js'
import { isInvoiceLink, linkStatus } from '../domain/link-status.js'
import { shopUrl } from '../domain/shop-urls.js'
import { PUBLIC_FORM_BODY_LIMIT } from '../http/body-limits.js'
import { clientAcceptEncoding } from '../http/compress-pages.js'
import { formatAmount, formatMinutes } from '../i18n/index.js'
import { holdBody } from '../lib/bounded-body.js'
import { readForm } from '../lib/form-body.js'
import { startCheckout } from '../payments/checkout.js'
import { type OrderErrors, priceOrder } from '../payments/order.js'
import { lookUpPromoCode } from '../payments/order-promo.js'
import { attributeText, CHALLENGE_SLOT } from '../security/captcha.js'
import { issueSharedToken, verifyToken } from '../security/tokens.js'
import { cartOfLink } from './checkout-cart.js'
import { pageKey, plainQuery } from './checkout-prepared.js'
import { retryHref, retryValues } from './checkout-retry.js'
import { checkoutSummary } from './checkout-summary.js'
import { customerTooLargePage, gatewayErrorPage, notFoundPage } from './error-pages.js'
import { pageContext, pageLanguage } from './page.js'
import { pageVariant, prepareStaticPage } from './static-page.js'

const FORM_MAX_AGE_MS = 2 * 60 * 60_000
const CHECKOUT_LIMIT = { perWindow: 10, windowMs: 60_000 }

export const checkoutRoutes = new Hono<AppEnv>()

checkoutRoutes.get('/l/:slug', async (c) => {
  const link = await readLinkBySlug(c.get('db'), c.req.param('slug'), c.get('linkCache'))
  if (!link) return notFoundPage(c)
  await c.get('brand').at(c.get('db'), link.brandingVersion)
  const lang = pageLanguage(c, link.language)
  const checkout = await checkoutOf(c, link)
  const unavailable = await unavailablePage(c, link, lang, undefined, undefined, checkout)
  if (unavailable) return unavailable
  const q = c.req.query()
  // "Try again" names the unsuccessful payment, whose details fill the form (checkout-retry.ts).
  const retried =
    q.retry === undefined ? null : await retryValues(c.get('db'), link, q.retry, c.get('clock')())
  // The customer's details, read back from their payment or the shop's checkout: kept by no
  // cache, as on the receipt.
  if (retried || checkout) c.header('Cache-Control', 'no-store')
  const values = retried ?? {
    name: q.name,
    phone: q.phone,
    email: q.email,
    amount: q.amount,
    ref: q.ref,
    ...answerValues(q),
  }
  return renderCheckout(
    c,
    link,
    lang,
    200,
    { values: checkout ? orderValues(checkout, values) : values, errors: {} },
    checkout,
    q,
  )
})

/** The checkout a shop made this link for, or null for every other link (one read, only then). */
function checkoutOf(c: Context<AppEnv>, link: Link): Promise<Checkout | null> | null {
  return link.source === 'checkout' ? getCheckoutByLinkId(c.get('db'), link.id) : null
}

/**
 * A checkout's form: the customer's details the shop gave, unless the customer typed others (a
 * retry, a prefill). No `ref`: the payment's is the checkout's reference (payment-reserve.ts).
 */
function orderValues(checkout: Checkout, values: CheckoutProps['values']): CheckoutProps['values'] {
  return {
    name: values.name ?? checkout.customerName ?? undefined,
    phone: values.phone ?? checkout.customerPhone ?? undefined,
    email: values.email ?? checkout.customerEmail ?? undefined,
    ...answerValues(values),
  }
}

// A fresh captcha challenge, fetched by the form's script when the page's own has expired.
checkoutRoutes.get('/l/:slug/challenge', (c) => {
  const captcha = c.get('captcha')
  if (!captcha) return c.json({ error: { code: 'not_found', message: 'No captcha.' } }, 404)
  c.header('Cache-Control', 'no-store')
  const challenge = captcha.challenge(c.get('secrets').sessionSecret, c.get('clock')())
  return c.body(challenge, 200, { 'Content-Type': 'application/json' })
})

/**
 * A promo code's terms, asked by the order summary's script ("Apply" without a reload): the code
 * as the merchant wrote it and its discount, or why it does not apply in the page's language.
 * Counted with the checkout's submissions (the same limit per address), so it is no faster a way
 * to try codes than submitting the form; kept by no cache.
 */
checkoutRoutes.get('/l/:slug/promo', async (c) => {
  c.header('Cache-Control', 'no-store')
  const link = await readLinkBySlug(c.get('db'), c.req.param('slug'), c.get('linkCache'))
  if (!link) return c.json({ ok: false, message: 'Not found' }, 404)
  const lang = pageLanguage(c, link.language)
  const t = pageContext(c, lang).t
  const now = c.get('clock')()
  const limit = await hitRateLimit(
    c.get('db'),
    `checkout:${c.get('clientIp')(c)}`,
    CHECKOUT_LIMIT.perWindow,
    CHECKOUT_LIMIT.windowMs,
    now,
  )
  if (!limit.allowed) {
    c.header('Retry-After', String(Math.max(1, Math.ceil((limit.resetAt - now) / 1000))))
    return c.json({ ok: false, message: t('errRateLimited') }, 429)
  }
  const typed = (c.req.query('code') ?? '').trim().slice(0, 100)
  const found = await lookUpPromoCode(c.var, link, typed, null)
  if (!found.ok) {
    return c.json({
      ok: false,
      message: t(found.error.key, formatParams(found.error.params, lang)),
    })
  }
  const promo = found.promo
  return c.json(
    promo
      ? {
          ok: true,
          code: promo.code,
          percent_off: promo.percentOff,
          // Centimes, as the page's data attributes hold amounts.
          amount_off: promo.amountOff,
          min_amount: promo.minAmount,
        }
      : { ok: true, code: null },
  )
})

checkoutRoutes.post('/l/:slug', async (c) => {
  const link = await readLinkBySlug(c.get('db'), c.req.param('slug'), c.get('linkCache'))
  if (!link) return notFoundPage(c)
  await c.get('brand').at(c.get('db'), link.brandingVersion)
  const checkout = await checkoutOf(c, link)
  const now = c.get('clock')()
  // Counted before the body is read: a flood of submissions costs a counter, not its bodies.
  const limit = await hitRateLimit(
    c.get('db'),
    `checkout:${c.get('clientIp')(c)}`,
    CHECKOUT_LIMIT.perWindow,
    CHECKOUT_LIMIT.windowMs,
    now,
  )
  if (!limit.allowed) {
    const lang = pageLanguage(c, link.language)
    c.header('Retry-After', String(Math.max(1, Math.ceil((limit.resetAt - now) / 1000))))
    return renderCheckout(
      c,
      link,
      lang,
      429,
      { values: {}, errors: { form: pageContext(c, lang).t('errRateLimited') } },
      checkout,
    )
  }
  if (!(await holdBody(c, PUBLIC_FORM_BODY_LIMIT))) {
    const lang = pageLanguage(c, link.language)
    return customerTooLargePage(c, lang, `/l/${link.slug}?lang=${lang}`)
  }
  const form = await readForm(c)
  const lang = pageLanguage(c, typeof form.lang === 'string' ? form.lang : link.language)
  const t = pageContext(c, lang).t
  const typed = pick(form)
  const values = checkout ? orderValues(checkout, typed) : typed
  if (
    !(await verifyToken(
      c.get('secrets').sessionSecret,
      `checkout:${link.slug}`,
      form.csrf,
      now,
      FORM_MAX_AGE_MS,
    ))
  ) {
    return renderCheckout(c, link, lang, 403, { values, errors: { form: t('errForm') } }, checkout)
  }
  // "Apply" of the promo code without script: the page again with the discount, nothing written
  // and no payment started (so no captcha); counted above with the submissions.
  if (form.apply_promo !== undefined) {
    const closed = await unavailablePage(c, link, lang, undefined, undefined, checkout)
    if (closed) return closed
    const applied = await priceOrder(c.var, link, form, null)
    const promoError = applied.ok ? undefined : applied.errors.promo_code
    const errors: CheckoutProps['errors'] = promoError
      ? { promo_code: t(promoError.key, formatParams(promoError.params, lang)) }
      : {}
    return renderCheckout(c, link, lang, 200, { values, errors }, checkout, form)
  }
  const captcha = c.get('captcha')
  if (captcha && !(await captcha.verify(c, form))) {
    return renderCheckout(
      c,
      link,
      lang,
      400,
      { values, errors: { form: t('errCaptcha') } },
      checkout,
    )
  }
  const unavailable = await unavailablePage(c, link, lang, undefined, undefined, checkout)
  if (unavailable) return unavailable
  const parsed = parseCheckoutForm(form, {
    open: link.amount === null,
    min: link.amountMin ?? MIN_AMOUNT,
    max: link.amountMax,
    fixed: link.amount,
  })
  // The order is priced even when the details are refused, so every refused field is named at once.
  const priced = await priceOrder(c.var, link, form, parsed.ok ? parsed.value : null)
  if (!parsed.ok || !priced.ok) {
    const refused: OrderErrors = {
      ...(parsed.ok ? {} : parsed.errors),
      ...(priced.ok ? {} : priced.errors),
    }
    const errors: CheckoutProps['errors'] = {}
    for (const [field, error] of Object.entries(refused))
      errors[field] = t(error.key, formatParams(error.params, lang))
    return renderCheckout(c, link, lang, 400, { values, errors }, checkout, form)
  }
  const result = await startCheckout(c.var, link, parsed.value, lang, priced.order)
  if (result.kind === 'redirect') return c.redirect(result.url, 303)
  if (result.kind === 'balance_changed') {
    // Another part of a deposit was paid meanwhile: the form again, with the balance as it is now.
    const fresh = (await readLinkBySlug(c.get('db'), link.slug, c.get('linkCache'))) ?? link
    const balance = formatAmount(result.balance, lang)
    const errors = { amount: t('errBalanceChanged', { balance }) }
    return renderCheckout(c, fresh, lang, 409, { values: { ...values, amount: undefined }, errors })
  }
  // A cart the stock no longer serves, or repriced since: the form again, with what is now true.
  if (result.kind === 'sold_out') {
    const errors: CheckoutProps['errors'] = {}
    for (const line of result.lines)
      errors[quantityField(line.productId)] =
        line.left === 0 ? t('cartSoldOut') : t('cartOnlyLeft', { count: String(line.left) })
    return renderCheckout(c, link, lang, 409, { values, errors }, checkout, form)
  }
  if (result.kind === 'price_changed') {
    const errors = { form: t('cartRepriced') }
    return renderCheckout(c, link, lang, 409, { values, errors }, checkout, omitShownPrices(form))
  }
  if (result.kind === 'order_refused') {
    // The code was used up (or switched off) by others since the form was priced.
    const errors = { [result.field]: t('errPromoUsedUp') }
    return renderCheckout(c, link, lang, 409, { values, errors }, checkout, form)
  }
  if (result.kind === 'gateway_error')
    return gatewayErrorPage(
      c,
      lang,
      retryHref(link.slug, lang, result.payment.receiptId),
      checkout && shopUrl(checkout.cancelUrl, checkout.id),
    )
  return unavailablePage(
    c,
    link,
    lang,
    result.reason,
    result.retryAfterMs,
    checkout,
  ) as Promise<Response>
})

/** The form without the prices its page showed: the page shown again shows today's. */
function omitShownPrices(form: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(form).filter(([k]) => !k.startsWith('price_')))
}

/** An order error's params as the page writes them: amounts formatted, the rest as is. */
function formatParams(params: Record<string, number | string> | undefined, lang: Language) {
  return Object.fromEntries(
    Object.entries(params ?? {}).map(([k, v]) => [
      k,
      typeof v === 'number' ? formatAmount(v, lang) : v,
    ]),
  )
}

function pick(form: Record<string, unknown>): CheckoutProps['values'] {
  const s = (v: unknown) => (typeof v === 'string' ? v.slice(0, 300) : undefined)
  return {
    name: s(form.name),
    phone: s(form.phone),
    email: s(form.email),
    amount: s(form.amount),
    ref: s(form.ref),
    ...answerValues(form),
  }
}

async function renderCheckout(
  c: Context<AppEnv>,
  link: LinkWithStats,
  lang: Language,
  status: 200 | 400 | 403 | 409 | 429,
  state: Pick<CheckoutProps, 'values' | 'errors'>,
  checkout: Checkout | null = null,
  /** The query or the posted form: what the customer chose (a cart's `qty_<product_id>`…). */
  sent: Record<string, unknown> = {},
) {
  const now = c.get('clock')()
  const cart = await cartOfLink(c.get('db'), link, sent)
  // The order summary (promo code, fee): priced from the posted form, or the query's prefill.
  const summary = await checkoutSummary(c.var, link, sent)
  const csrfToken = await issueSharedToken(
    c.get('secrets').sessionSecret,
    `checkout:${link.slug}`,
    now,
  )
  const captcha = c.get('captcha')
  const brand = c.get('brand').current()
  // The plain form (no prefill, no errors) is the same for every visitor of this link version,
  // language and form token (docs/decisions/performance.md, "Prepared once, sent as is"). A
  // checkout's page is its one customer's, with the shop's order: never prepared, never shared.
  // A cart's page shows the stock and prices of now: never prepared either. Nor is a link whose
  // customer pays the fee (it shows the settings' rate, which the link's version does not follow),
  // nor a page answering a form (an applied promo code).
  const plain =
    checkout === null &&
    cart === undefined &&
    !link.customerFee &&
    c.req.method === 'GET' &&
    status === 200 &&
    Object.keys(state.errors).length === 0 &&
    Object.values(state.values).every((v) => v === undefined) &&
    plainQuery(c.req.url) !== null
  // A page rendered for this answer carries its challenge; a prepared one an empty slot.
  const render = (nonce: string, challenge: string) => {
    const ctx = { ...pageContext(c, lang), nonce }
    return (
      <CheckoutPage
        ctx={ctx}
        link={{
          slug: link.slug,
          title: link.title,
          description: link.description,
          amount: cart ? cart.subtotal : link.amount,
          amountMin: link.amountMin,
          amountMax: link.amountMax,
          // A checkout of products shows them as a cart (its lines below), not as items.
          items: cart
            ? null
            : checkout
              ? (checkout.lineItems?.map((item) => ({
                  description: item.name,
                  quantity: item.quantity,
                  unitPrice: item.unitPrice,
                })) ?? null)
              : link.invoiceItems,
        }}
        order={
          checkout
            ? {
                reference: checkout.reference,
                backUrl: shopUrl(checkout.cancelUrl, checkout.id),
              }
            : undefined
        }
        cart={cart}
        values={state.values}
        errors={state.errors}
        deposit={depositView(link, link) ?? undefined}
        customFields={link.customFields}
        summary={summary}
        csrfToken={csrfToken}
        onlineTermsUrl={`/terms?lang=${lang}`}
        merchantTermsUrl={merchantTermsHref(brand, lang)}
        captcha={captcha ? captcha.widget(ctx, `/l/${link.slug}/challenge`, challenge) : undefined}
      />
    )
  }
  const secret = c.get('secrets').sessionSecret
  if (!plain) {
    const challenge = captcha ? captcha.challenge(secret, now) : ''
    return c.html(render(c.get('secureHeadersNonce') ?? '', challenge), status)
  }
  const key = pageKey(link, brand.version, lang, now)
  let page = c.get('pageCache').get(key)
  if (!page) {
    const html = String(await render('', '').toString())
    page = await prepareStaticPage(html, {
      security: c.get('security'),
      gzip: c.get('gzip'),
      spliceGzip: c.get('spliceGzip'),
      slot: captcha ? CHALLENGE_SLOT : undefined,
    })
    c.get('pageCache').set(key, page)
  }
  const fill = captcha && (() => attributeText(captcha.challenge(secret, now)))
  const chosen = pageVariant(page, clientAcceptEncoding(c.req.raw), fill)
  return c.body(chosen.body as Uint8Array<ArrayBuffer>, 200, chosen.headers)
}

/** The friendly page for a link that cannot take a payment now, or null when it can. */
async function unavailablePage(
  c: Context<AppEnv>,
  link: LinkWithStats,
  lang: Language,
  reason?: 'in_progress' | 'completed' | 'inactive' | 'expired',
  retryAfterMs?: number,
  checkout: Checkout | null = null,
): Promise<Response | null> {
  const status = reason ?? linkStatus(link, link, c.get('clock')())
  if (status === 'active') return null
  const ctx = pageContext(c, lang)
  const t = ctx.t
  if (checkout && status !== 'in_progress') {
    // A shop's order: paid (on to the shop's success page), or closed (back to the shop).
    const paid = status === 'completed'
    const back = shopUrl(paid ? checkout.successUrl : checkout.cancelUrl, checkout.id)
    const [title, text] = paid
      ? [t('checkoutPaidTitle'), t('checkoutPaidText')]
      : status === 'inactive'
        ? [t('checkoutCanceledTitle'), t('checkoutCanceledText')]
        : [t('checkoutExpiredTitle'), t('checkoutExpiredText')]
    c.header('Cache-Control', 'no-store')
    return c.html(
      <MessagePage
        ctx={ctx}
        icon={paid ? 'ok' : 'info'}
        title={title}
        text={text}
        action={back ? { href: back, label: t('backToShop') } : undefined}
      />,
      status === 'inactive' ? 403 : 410,
    )
  }
  if (status === 'in_progress') {
    const minutes = Math.max(1, Math.ceil((retryAfterMs ?? 60_000) / 60_000))
    c.header('Retry-After', String(minutes * 60))
    return c.html(
      <MessagePage
        ctx={ctx}
        icon="wait"
        title={t('inProgressTitle')}
        text={t('inProgressText', { minutes: formatMinutes(minutes, lang) })}
        action={{ href: `/l/${link.slug}?lang=${lang}`, label: t('tryAgain') }}
      />,
      409,
    )
  }
  if (status === 'completed' && isInvoiceLink(link)) {
    // The invoice is paid: say when, rather than that a link is used up (one more read, only here).
    const paidAt = await lastPaidAt(c.get('db'), link.id)
    return c.html(
      <InvoicePaidPage ctx={ctx} title={link.title} amount={link.amount} paidAt={paidAt} />,
      410,
    )
  }
  const [title, text, code] =
    status === 'inactive'
      ? [t('linkInactiveTitle'), link.inactiveMessage || t('linkInactiveText'), 403 as const]
      : status === 'expired'
        ? [t('linkExpiredTitle'), t('linkExpiredText'), 410 as const]
        : [t('linkCompletedTitle'), t('linkCompletedText'), 410 as const]
  const typed = status === 'inactive' && link.inactiveMessage ? 'auto' : undefined
  return c.html(
    <MessagePage ctx={ctx} icon="info" title={title} text={text} textDir={typed} />,
    code,
  )
}
