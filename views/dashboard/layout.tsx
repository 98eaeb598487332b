import { raw } from 'hono/html'
import type { Child } from 'hono/jsx'
import type { Permission } from '../../src/auth/roles.js'
import type { Language } from '../../src/config.js'
import type { DashScripts } from '../../src/dashboard/kit.js'
import type { DashKey, DashTranslate } from '../../src/dashboard/messages.js'
import { MESSAGES } from '../../src/i18n/index.js'
import { FaviconLink } from '../favicon.js'
import { LanguageSwitcher } from '../layout.js'
import { MessageCard } from '../message-card.js'

/** What every dashboard page needs from the request. */
export interface DashContext {
  lang: Language
  t: DashTranslate
  /** The stylesheet, inline under the nonce. */
  css: string
  /** The pages' scripts, by name (a page names its own with the layout's `script`). */
  scripts: DashScripts
  nonce: string
  testMode: boolean
  merchantName: string
  /** The current path and query without `lang`, for the language switcher. */
  switchPath: string
  /** The form token of the signed-in session; absent on the login page. */
  csrf?: string | undefined
  /** Webhook endpoints failing now (the banner); absent or empty when none is. */
  failingEndpoints?: { id: string; url: string }[] | undefined
  /** What the signed-in principal may do: the navigation shows only these pages. */
  permissions?: readonly Permission[] | undefined
  /** Who is signed in, as the header shows it (an e-mail, or the admin token's label). */
  who?: string | undefined
}

export type NavItem =
  | 'overview'
  | 'links'
  | 'products'
  | 'promo-codes'
  | 'payments'
  | 'checkouts'
  | 'new'
  | 'till'
  | 'webhooks'
  | 'people'
  | 'keys'
  | 'audit'
  | 'settings'
  | 'account'

/** The navigation: each page with what it needs (src/auth/policy.ts has the same for routes). */
const NAV: { item: NavItem; href: string; label: DashKey; needs: Permission | 'signed-in' }[] = [
  { item: 'overview', href: '/dashboard', label: 'navOverview', needs: 'payments.read' },
  { item: 'links', href: '/dashboard/links', label: 'navLinks', needs: 'links.read' },
  { item: 'products', href: '/dashboard/products', label: 'navProducts', needs: 'links.read' },
  {
    item: 'promo-codes',
    href: '/dashboard/promo-codes',
    label: 'navPromoCodes',
    needs: 'links.read',
  },
  { item: 'payments', href: '/dashboard/payments', label: 'navPayments', needs: 'payments.today' },
  { item: 'checkouts', href: '/dashboard/checkouts', label: 'navCheckouts', needs: 'links.read' },
  { item: 'new', href: '/dashboard/links/new', label: 'navNewLink', needs: 'links.write' },
  { item: 'till', href: '/dashboard/till', label: 'navTill', needs: 'till' },
  { item: 'webhooks', href: '/dashboard/webhooks', label: 'navWebhooks', needs: 'webhooks' },
  { item: 'people', href: '/dashboard/people', label: 'navPeople', needs: 'people' },
  { item: 'keys', href: '/dashboard/keys', label: 'navKeys', needs: 'keys' },
  { item: 'audit', href: '/dashboard/audit', label: 'navAudit', needs: 'audit' },
  { item: 'settings', href: '/dashboard/settings', label: 'navSettings', needs: 'settings' },
  { item: 'account', href: '/dashboard/account', label: 'navAccount', needs: 'signed-in' },
]

/** The hidden field that carries the session's form token. */
export function CsrfField(props: { ctx: DashContext }) {
  return <input type="hidden" name="_csrf" value={props.ctx.csrf ?? ''} />
}

/**
 * The dashboard shell: language and direction, nonce'd style and script, test banner, header.
 * Signed in, the header is one row on a phone: the merchant, the current page's name and a menu
 * button that opens every page the role may open, the language and logging out (HeaderMenu); from
 * desktop widths the same list shows as a row and the button is hidden (styles.ts, MENU_CSS).
 */
export function DashLayout(props: {
  ctx: DashContext
  title: string
  nav?: NavItem | undefined
  children: Child
  /** This page's script, by name (from the kit), sent with the CSP nonce. */
  script?: keyof DashScripts | undefined
}) {
  const { ctx } = props
  const t = ctx.t
  const signedIn = ctx.csrf !== undefined
  const here = NAV.find((n) => n.item === props.nav)
  const language = (
    <LanguageSwitcher lang={ctx.lang} label={ctx.t('chooseLanguage')} path={ctx.switchPath} />
  )
  return (
    <>
      {raw('<!doctype html>')}
      <html lang={ctx.lang} dir={t('dir')}>
        <head>
          <meta charset="utf-8" />
          <meta name="viewport" content="width=device-width,initial-scale=1" />
          <meta name="robots" content="noindex" />
          <title>{`${props.title} · ${t('dashboard')} · ${ctx.merchantName}`}</title>
          <FaviconLink />
          <style nonce={ctx.nonce}>{raw(ctx.css)}</style>
        </head>
        <body>
          <header>
            {ctx.testMode ? (
              <div class="test" role="note">
                {t('testBanner')}
              </div>
            ) : null}
            {signedIn ? (
              <div class="wrap top">
                <div class="where">
                  <span class="merchant" dir="auto">
                    {ctx.merchantName}
                  </span>
                  <span class="here" dir="auto">
                    {here ? t(here.label) : props.title}
                  </span>
                </div>
                <HeaderMenu ctx={ctx} nav={props.nav}>
                  {language}
                </HeaderMenu>
              </div>
            ) : (
              <div class="wrap top">
                <span class="merchant" dir="auto">
                  {ctx.merchantName}
                </span>
                {language}
              </div>
            )}
          </header>
          <main class="wrap">
            <FailingWebhooksBanner ctx={ctx} />
            {props.children}
          </main>
          {signedIn ? <script nonce={ctx.nonce}>{raw(ctx.scripts.menu)}</script> : null}
          {props.script ? (
            <script nonce={ctx.nonce}>{raw(ctx.scripts[props.script])}</script>
          ) : null}
        </body>
      </html>
    </>
  )
}

/**
 * The signed-in navigation as a disclosure: a `<details>` opens and closes without script (the
 * CSP allows only the dashboard's own), its `<summary>` is a button to keyboards and screen
 * readers, named by its visible word. The list holds the pages the role may open, the current one
 * marked, then logging out and `children` (the language switcher).
 */
function HeaderMenu(props: { ctx: DashContext; nav: NavItem | undefined; children: Child }) {
  const { ctx } = props
  const t = ctx.t
  return (
    <details class="menu">
      <summary>
        <svg viewBox="0 0 20 20" aria-hidden="true" focusable="false">
          <path d="M3 5h14M3 10h14M3 15h14" stroke="currentColor" stroke-width="2" />
        </svg>
        {t('navMenu')}
      </summary>
      <div class="menu-panel">
        <nav class="main" aria-label={t('navMain')}>
          <ul>
            {NAV.filter((n) => n.needs === 'signed-in' || ctx.permissions?.includes(n.needs)).map(
              (n) => (
                <li>
                  <a href={n.href} aria-current={props.nav === n.item ? 'page' : undefined}>
                    {t(n.label)}
                  </a>
                </li>
              ),
            )}
            <li class="out">
              <form class="inline" method="post" action="/dashboard/logout">
                <CsrfField ctx={ctx} />
                <button type="submit" class="link">
                  {t('logout')}
                </button>
              </form>
            </li>
          </ul>
        </nav>
        {props.children}
      </div>
    </details>
  )
}

/** The warning that webhook endpoints are failing, leading to its deliveries (or to the list). */
function FailingWebhooksBanner(props: { ctx: DashContext }) {
  const failing = props.ctx.failingEndpoints ?? []
  const first = failing[0]
  if (!first) return null
  const t = props.ctx.t
  return (
    <p class="alert wh-banner" role="alert" data-banner="webhooks-failing">
      {failing.length === 1 ? (
        <>
          {t('whBannerOne')}{' '}
          <bdi dir="ltr" class="wh-url">
            {first.url}
          </bdi>
        </>
      ) : (
        t('whBannerMany', { n: failing.length })
      )}{' '}
      <a
        href={
          failing.length === 1
            ? `/dashboard/webhooks/${encodeURIComponent(first.id)}`
            : '/dashboard/webhooks'
        }
      >
        {t('whBannerOpen')}
      </a>
    </p>
  )
}

/** Each language by its own name. */
export const LANGUAGE_NAMES: Record<Language, string> = {
  ar: MESSAGES.ar.languageName,
  fr: MESSAGES.fr.languageName,
  en: MESSAGES.en.languageName,
}

/** A short page: a title, a text, a way on (refusals, not found, confirmations). */
export function DashMessagePage(props: {
  ctx: DashContext
  title: string
  text: string
  action?: { href: string; label: string }
}) {
  return (
    <DashLayout ctx={props.ctx} title={props.title}>
      <MessageCard class="card" {...props} />
    </DashLayout>
  )
}
