/** The customer's checkout: `GET /l/:slug` shows the link, `POST /l/:slug` starts the payment. */

import type { Context } from 'hono'
import { Hono } from 'hono'
import type { Link } from '../../db/schema.js'
import { CheckoutPage, type CheckoutProps } from '../../views/checkout.js'
import { MessagePage } from '../../views/message-page.js'
import { MIN_AMOUNT } from '../api/link-body.js'
import type { AppDeps, AppEnv } from '../app-deps.js'
import type { Language } from '../config.js'
import { type LinkWithStats, readLinkBySlug } from '../data/links.js'
import { hitRateLimit } from '../data/rate-limits.js'
import { parseCheckoutForm } from '../domain/checkout-input.js'
import { linkStatus } from '../domain/link-status.js'
import { formatAmount, formatMinutes, pickLanguage } from '../i18n/index.js'
import { readForm } from '../lib/form-body.js'
import type { Lru } from '../lib/lru.js'
import { holdBody, PUBLIC_FORM_BODY_LIMIT } from '../middleware/body-limits.js'
import { newRequestId, requestLogEntry } from '../middleware/request-log.js'
import { startCheckout } from '../payments/checkout.js'
import { issueSharedToken, sharedTokenWindow, verifyToken } from '../security/tokens.js'
import { pageContext, pageLanguage } from './page.js'
import { pageVariant, prepareStaticPage, type StaticPage, sendStaticPage } from './static-page.js'
import { tooLargePage } from './too-large.js'

const FORM_MAX_AGE_MS = 2 * 60 * 60_000
const CHECKOUT_LIMIT = { perWindow: 10, windowMs: 60_000 }

export const checkoutRoutes = new Hono<AppEnv>()

checkoutRoutes.get('/l/:slug', async (c) => {
  const link = await readLinkBySlug(c.get('db'), c.req.param('slug'), c.get('linkCache'))
  if (!link) return notFound(c)
  const lang = pageLanguage(c, link.language)
  const unavailable = await unavailablePage(c, link, lang)
  if (unavailable) return unavailable
  const q = c.req.query()
  return renderCheckout(c, link, lang, 200, {
    values: { name: q.name, phone: q.phone, email: q.email, amount: q.amount, ref: q.ref },
    errors: {},
  })
})

// The captcha's challenge, fetched by the form's script (the page itself is the same for everyone).
checkoutRoutes.get('/l/:slug/challenge', async (c) => {
  const captcha = c.get('captcha')
  if (!captcha) return c.json({ error: { code: 'not_found', message: 'No captcha.' } }, 404)
  c.header('Cache-Control', 'no-store')
  return c.body(await captcha.challenge(c), 200, { 'Content-Type': 'application/json' })
})

checkoutRoutes.post('/l/:slug', async (c) => {
  const link = await readLinkBySlug(c.get('db'), c.req.param('slug'), c.get('linkCache'))
  if (!link) return notFound(c)
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
    return renderCheckout(c, link, lang, 429, {
      values: {},
      errors: { form: pageContext(c, lang).t('errRateLimited') },
    })
  }
  if (!(await holdBody(c, PUBLIC_FORM_BODY_LIMIT))) {
    const lang = pageLanguage(c, link.language)
    return tooLargePage(c, lang, `/l/${link.slug}?lang=${lang}`)
  }
  const form = await readForm(c)
  const lang = pageLanguage(c, typeof form.lang === 'string' ? form.lang : link.language)
  const t = pageContext(c, lang).t
  const values = pick(form)
  if (
    !(await verifyToken(
      c.get('secrets').sessionSecret,
      `checkout:${link.slug}`,
      form.csrf,
      now,
      FORM_MAX_AGE_MS,
    ))
  ) {
    return renderCheckout(c, link, lang, 403, { values, errors: { form: t('errForm') } })
  }
  const captcha = c.get('captcha')
  if (captcha && !(await captcha.verify(c, form))) {
    return renderCheckout(c, link, lang, 400, { values, errors: { form: t('errCaptcha') } })
  }
  const unavailable = await unavailablePage(c, link, lang)
  if (unavailable) return unavailable
  const parsed = parseCheckoutForm(form, {
    open: link.amount === null,
    min: link.amountMin ?? MIN_AMOUNT,
    max: link.amountMax,
    fixed: link.amount,
  })
  if (!parsed.ok) {
    const errors: CheckoutProps['errors'] = {}
    for (const [field, error] of Object.entries(parsed.errors)) {
      const params = Object.fromEntries(
        Object.entries(error.params ?? {}).map(([k, v]) => [k, formatAmount(v, lang)]),
      )
      errors[field as keyof typeof errors] = t(error.key, params)
    }
    return renderCheckout(c, link, lang, 400, { values, errors })
  }
  const result = await startCheckout(c.var, link, parsed.value, lang)
  if (result.kind === 'redirect') return c.redirect(result.url, 303)
  const ctx = pageContext(c, lang, false)
  if (result.kind === 'gateway_error') {
    return c.html(
      <MessagePage
        ctx={ctx}
        icon="alert"
        title={ctx.t('gatewayErrorTitle')}
        text={ctx.t('gatewayErrorText')}
        action={{ href: `/l/${link.slug}?lang=${lang}`, label: ctx.t('tryAgain') }}
      />,
      502,
    )
  }
  return unavailablePage(c, link, lang, result.reason, result.retryAfterMs) as Promise<Response>
})

function pick(form: Record<string, unknown>): CheckoutProps['values'] {
  const s = (v: unknown) => (typeof v === 'string' ? v.slice(0, 300) : undefined)
  return {
    name: s(form.name),
    phone: s(form.phone),
    email: s(form.email),
    amount: s(form.amount),
    ref: s(form.ref),
  }
}

/**
 * The cache key of a link's plain checkout page: its version, the language and the window of its
 * shared form token (which the window and the link name fully).
 */
function pageKey(link: Link, lang: Language, now: number): string {
  return `${link.id}|${link.updatedAt}|${lang}|${sharedTokenWindow(now)}`
}

/** The `?lang=` of a plain checkout request ('' for none), or null when it asks for more. */
function plainQuery(url: string): string | null {
  const q = url.indexOf('?')
  if (q < 0) return ''
  const m = /^lang=(ar|fr|en)$/.exec(url.slice(q + 1))
  return m ? (m[1] as string) : null
}

async function renderCheckout(
  c: Context<AppEnv>,
  link: Link,
  lang: Language,
  status: 200 | 400 | 403 | 429,
  state: Pick<CheckoutProps, 'values' | 'errors'>,
) {
  const now = c.get('clock')()
  const csrfToken = await issueSharedToken(
    c.get('secrets').sessionSecret,
    `checkout:${link.slug}`,
    now,
  )
  const captcha = c.get('captcha')
  // The plain form (no prefill, no errors) is the page every scan of a QR code asks for: the same
  // for every visitor of this link version, language and form token, so it is prepared once.
  const plain =
    status === 200 &&
    Object.keys(state.errors).length === 0 &&
    Object.values(state.values).every((v) => v === undefined) &&
    plainQuery(c.req.url) !== null
  const render = (nonce: string) => {
    const ctx = { ...pageContext(c, lang), nonce }
    return (
      <CheckoutPage
        ctx={ctx}
        link={{
          slug: link.slug,
          title: link.title,
          description: link.description,
          amount: link.amount,
          amountMin: link.amountMin,
          amountMax: link.amountMax,
          items: link.invoiceItems,
        }}
        values={state.values}
        errors={state.errors}
        csrfToken={csrfToken}
        onlineTermsUrl={`/terms?lang=${lang}`}
        merchantTermsUrl={c.get('config').merchantTermsUrl ?? `/terms?lang=${lang}#merchant`}
        captcha={captcha ? captcha.widget(ctx, `/l/${link.slug}/challenge`) : undefined}
      />
    )
  }
  if (!plain) return c.html(render(c.get('secureHeadersNonce') ?? ''), status)
  const key = pageKey(link, lang, now)
  let page = c.get('pageCache').get(key)
  if (!page) {
    const html = String(await render('').toString())
    page = await prepareStaticPage(html, {
      security: c.get('security'),
      gzip: c.get('gzip'),
    })
    c.get('pageCache').set(key, page)
  }
  const chosen = pageVariant(page, c.req.header('accept-encoding'))
  return c.body(chosen.body as Uint8Array<ArrayBuffer>, 200, chosen.headers)
}

/** The slug of a `/l/:slug` request URL, or null (any other path, or one that needs decoding). */
function checkoutSlug(url: string): string | null {
  const path = url.indexOf('/', url.indexOf('//') + 2)
  if (path < 0) return null
  const end = url.indexOf('?', path)
  const m = /^\/l\/([\w-]+)$/.exec(url.slice(path, end < 0 ? undefined : end))
  return m ? (m[1] as string) : null
}

/**
 * `GET /l/:slug` for a page already prepared, answered before the request is routed (see
 * createApp): the prepared bytes and headers, and the same log line the middleware would write,
 * from memory alone and without a promise. Undefined for any other request — another path or
 * method, a link not in the read cache or changed since, unavailable, a prefilled form, a page not
 * prepared yet, Workers (no read cache) — which the app then routes as usual.
 */
export function preparedCheckoutPage(
  deps: AppDeps,
  pageCache: Lru<StaticPage>,
): (request: Request) => Response | undefined {
  return (request) => {
    if (request.method !== 'GET' || !deps.linkCache) return undefined
    const url = request.url
    const slug = checkoutSlug(url)
    const query = slug === null ? null : plainQuery(url)
    if (slug === null || query === null) return undefined
    const started = deps.clock()
    const link = deps.linkCache.peek(slug)
    if (!link || linkStatus(link, link, started) !== 'active') return undefined
    const lang = pickLanguage({
      query,
      link: link.language,
      acceptLanguage: request.headers.get('accept-language') ?? undefined,
      fallback: deps.config.defaultLanguage,
    })
    const page = pageCache.get(pageKey(link, lang, started))
    if (!page) return undefined
    const requestId = newRequestId()
    const response = sendStaticPage(
      page,
      request.headers.get('accept-encoding') ?? undefined,
      requestId,
    )
    deps.log(
      requestLogEntry({
        started,
        finished: deps.clock(),
        requestId,
        method: 'GET',
        route: '/l/:slug',
        status: 200,
      }),
    )
    return response
  }
}

/** The friendly page for a link that cannot take a payment now, or null when it can. */
async function unavailablePage(
  c: Context<AppEnv>,
  link: LinkWithStats,
  lang: Language,
  reason?: 'in_progress' | 'completed' | 'inactive' | 'expired',
  retryAfterMs?: number,
): Promise<Response | null> {
  const status = reason ?? linkStatus(link, link, c.get('clock')())
  if (status === 'active') return null
  const ctx = pageContext(c, lang)
  const t = ctx.t
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
  const [title, text, code] =
    status === 'inactive'
      ? [t('linkInactiveTitle'), link.inactiveMessage || t('linkInactiveText'), 403 as const]
      : status === 'expired'
        ? [t('linkExpiredTitle'), t('linkExpiredText'), 410 as const]
        : [t('linkCompletedTitle'), t('linkCompletedText'), 410 as const]
  return c.html(<MessagePage ctx={ctx} icon="info" title={title} text={text} />, code)
}

/** The customer-facing 404 page. */
export function notFound(c: Context<AppEnv>) {
  const ctx = pageContext(c, pageLanguage(c))
  return c.html(
    <MessagePage ctx={ctx} title={ctx.t('notFoundTitle')} text={ctx.t('notFoundText')} />,
    404,
  )
}

const PLAIN_SERVER_ERROR =
  'حدث خطأ. يرجى المحاولة مرة أخرى. / Une erreur est survenue ; veuillez réessayer. / Something went wrong; please try again.'

/**
 * The customer-facing 500 page, in the visitor's language, with the request id to quote. Should
 * even that fail to render, a line of plain text in the three languages.
 */
export function serverError(c: Context<AppEnv>) {
  try {
    const ctx = pageContext(c, pageLanguage(c))
    const ref = c.get('requestId')
    return c.html(
      <MessagePage
        ctx={ctx}
        icon="alert"
        title={ctx.t('serverErrorTitle')}
        text={ctx.t('serverErrorText')}
      >
        {ref ? <p class="muted">{ctx.t('serverErrorRef', { ref })}</p> : null}
      </MessagePage>,
      500,
    )
  } catch {
    return c.text(PLAIN_SERVER_ERROR, 500)
  }
}
