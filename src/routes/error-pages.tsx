/**
 * The pages that say no, for the customer pages and the dashboard: what each refusal says (its
 * status, the keys of its words, its way back) in one table per surface, shown in the surface's
 * own layout by one function. The 429s are not pages of their own: the checkout and sign-in forms
 * show theirs on the form, with what was typed kept.
 */
import type { Context } from 'hono'
import type { Child } from 'hono/jsx'
import type { ContentfulStatusCode } from 'hono/utils/http-status'
import { type DashContext, DashMessagePage } from '../../views/dashboard/layout.js'
import type { StatusKind } from '../../views/icons.js'
import type { PageContext } from '../../views/layout.js'
import { MessagePage } from '../../views/message-page.js'
import { principalRole } from '../auth/principal.js'
import type { Language } from '../config.js'
import { type DashC, dashContext } from '../dashboard/context.js'
import { type Landing, landingOf, mayOpen } from '../dashboard/home.js'
import type { AppEnv } from '../deps.js'
import { pageContext, pageLanguage } from './page.js'

/** A refusal: its status, the keys of its title and text, an icon, the label of its way back. */
interface Refusal<Key> {
  status: ContentfulStatusCode
  title: Key
  text: Key
  icon?: StatusKind
  back?: Key
}

/** A dashboard refusal: its way back is the links (the default) or the role's home. */
type DashRefusal = Omit<Refusal<DashKey>, 'back'> & { back?: 'home' }

type PageKey = Parameters<PageContext['t']>[0]
type DashKey = Parameters<DashContext['t']>[0]

/** The customer pages' refusals (the link's own states are the checkout's: checkout.tsx). */
const CUSTOMER = {
  notFound: { status: 404, title: 'notFoundTitle', text: 'notFoundText' },
  // A form larger than Paylinks reads (see body-limits.ts).
  tooLarge: {
    status: 413,
    icon: 'alert',
    title: 'tooLargeTitle',
    text: 'tooLargeText',
    back: 'tryAgain',
  },
  serverError: { status: 500, icon: 'alert', title: 'serverErrorTitle', text: 'serverErrorText' },
  // The gateway refused or did not answer the start of a payment.
  gatewayError: {
    status: 502,
    icon: 'alert',
    title: 'gatewayErrorTitle',
    text: 'gatewayErrorText',
    back: 'tryAgain',
  },
} as const satisfies Record<string, Refusal<PageKey>>

/**
 * The dashboard's refusals; each leads back to the links, or, where the person's role may not
 * open them, to the first page it may (src/dashboard/home.ts).
 */
const DASHBOARD = {
  // The form's token is missing, forged or stale; nothing was changed.
  forbidden: { status: 403, title: 'forbiddenTitle', text: 'forbiddenText' },
  // The person's role does not include what the route needs; nothing was read or changed. Its
  // way back is the role's home, whatever the role.
  notAllowed: { status: 403, title: 'notAllowedTitle', text: 'notAllowedText', back: 'home' },
  linkNotFound: { status: 404, title: 'notFoundTitle', text: 'linkNotFound' },
  productNotFound: { status: 404, title: 'notFoundTitle', text: 'prNotFound' },
  promoCodeNotFound: { status: 404, title: 'notFoundTitle', text: 'pcNotFound' },
  // Over the form's body limit (see body-limits.ts); nothing was read further or changed.
  tooLarge: { status: 413, title: 'tooLargeTitle', text: 'tooLargeText' },
} as const satisfies Record<string, DashRefusal>

/** A customer refusal in `ctx`'s language; `back` is where its way back leads, if it has one. */
function customerPage(
  c: Context<AppEnv>,
  ctx: PageContext,
  refusal: Refusal<PageKey>,
  back?: string,
  children?: Child,
) {
  const action = back && refusal.back ? { href: back, label: ctx.t(refusal.back) } : undefined
  return c.html(
    <MessagePage
      ctx={ctx}
      icon={refusal.icon}
      title={ctx.t(refusal.title)}
      text={ctx.t(refusal.text)}
      action={action}
    >
      {children}
    </MessagePage>,
    refusal.status,
  )
}

/**
 * Where a dashboard refusal leads back: the links, unless the refusal asks for the role's home or
 * the role may not open the links (a cashier's way back to the links would be refused in turn).
 * Signed out (a sign-in form over its limit), the links, which lead to the sign-in page.
 */
function wayBack(c: DashC, refusal: DashRefusal): Landing {
  const principal = c.get('principal')
  if (!principal) return { href: '/dashboard/links', label: 'backToLinks' }
  const role = principalRole(principal)
  if (refusal.back !== 'home' && mayOpen(role, '/dashboard/links')) {
    return { href: '/dashboard/links', label: 'backToLinks' }
  }
  return landingOf(role)
}

/** A dashboard refusal, with its way back. */
function dashboardPage(c: DashC, refusal: DashRefusal): Response | Promise<Response> {
  const ctx = dashContext(c)
  const back = wayBack(c, refusal)
  return c.html(
    <DashMessagePage
      ctx={ctx}
      title={ctx.t(refusal.title)}
      text={ctx.t(refusal.text)}
      action={{ href: back.href, label: ctx.t(back.label) }}
    />,
    refusal.status,
  )
}

/** 404 for a customer, in the visitor's language. */
export function notFoundPage(c: Context<AppEnv>) {
  return customerPage(c, pageContext(c, pageLanguage(c)), CUSTOMER.notFound)
}

/**
 * The context of a refusal of a form: its language switcher leads back to the form's page (`back`)
 * in the language chosen, the only page a POST's address can be reopened as.
 */
function formRefusalContext(c: Context<AppEnv>, lang: Language, back: string): PageContext {
  const url = new URL(back, 'http://x')
  url.searchParams.delete('lang')
  const switchPath = url.pathname + (url.searchParams.size > 0 ? `?${url.searchParams}` : '')
  return { ...pageContext(c, lang, false), switchPath }
}

/** 413 in `lang`, with a way back to the page the form came from. */
export function customerTooLargePage(c: Context<AppEnv>, lang: Language, back: string) {
  return customerPage(c, formRefusalContext(c, lang, back), CUSTOMER.tooLarge, back)
}

/** 502 in `lang`: the payment could not be started; a way back to try again. */
export function gatewayErrorPage(
  c: Context<AppEnv>,
  lang: Language,
  back: string,
  /** A shop's checkout: its cancel_url (with the checkout's id), the way back to the shop. */
  shop?: string | null,
) {
  const ctx = formRefusalContext(c, lang, back)
  const toShop = shop ? (
    <p class="back">
      <a href={shop} rel="noopener">
        {ctx.t('backToShop')}
      </a>
    </p>
  ) : null
  return customerPage(c, ctx, CUSTOMER.gatewayError, back, toShop)
}

const PLAIN_SERVER_ERROR =
  'حدث خطأ. يرجى المحاولة مرة أخرى. / Une erreur est survenue ; veuillez réessayer. / Something went wrong; please try again.'

/**
 * 500 for a customer, in the visitor's language, with the request id to quote. Should even that
 * fail to render, a line of plain text in the three languages.
 */
export function serverErrorPage(c: Context<AppEnv>) {
  try {
    const ctx = pageContext(c, pageLanguage(c))
    const ref = c.get('requestId')
    return customerPage(
      c,
      ctx,
      CUSTOMER.serverError,
      undefined,
      ref ? <p class="muted">{ctx.t('serverErrorRef', { ref })}</p> : null,
    )
  } catch {
    return c.text(PLAIN_SERVER_ERROR, 500)
  }
}

/** 403 in the dashboard: the form's token is missing, forged or stale; nothing was changed. */
export function forbiddenPage(c: DashC): Response | Promise<Response> {
  return dashboardPage(c, DASHBOARD.forbidden)
}

/**
 * 403 in the dashboard: the person's role does not allow this page or action. The dashboard's own
 * address (a bookmark, the brand's link) is the exception: a role that may not read the overview
 * is sent on to its home, as signing in sends it.
 */
export function notAllowedPage(c: DashC): Response | Promise<Response> {
  const principal = c.get('principal')
  if (principal && c.req.method === 'GET' && c.req.path === '/dashboard') {
    const home = landingOf(principalRole(principal)).href
    if (home !== '/dashboard') return c.redirect(home, 302)
  }
  return dashboardPage(c, DASHBOARD.notAllowed)
}

/** 404 in the dashboard: no link with this id. */
export function linkNotFoundPage(c: DashC): Response | Promise<Response> {
  return dashboardPage(c, DASHBOARD.linkNotFound)
}

/** 404 in the dashboard: no product with this id. */
export function productNotFoundPage(c: DashC): Response | Promise<Response> {
  return dashboardPage(c, DASHBOARD.productNotFound)
}

/** 404 in the dashboard: no promo code with this id. */
export function promoCodeNotFoundPage(c: DashC): Response | Promise<Response> {
  return dashboardPage(c, DASHBOARD.promoCodeNotFound)
}

/** 413 in the dashboard: the form is over its body limit. */
export function tooLargePage(c: DashC): Response | Promise<Response> {
  return dashboardPage(c, DASHBOARD.tooLarge)
}
