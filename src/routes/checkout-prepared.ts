/**
 * The plain checkout page (no prefill, no error) is the same for every visitor of a link version,
 * language and form token: the checkout route renders it once, and it is then answered from
 * memory before the request is routed (docs/decisions/performance.md, "Answered before routing").
 */
import type { Link, LinkCounters } from '../../db/schema.js'
import type { Language } from '../config.js'
import type { AppDeps } from '../deps.js'
import { linkStatus } from '../domain/link-status.js'
import { clientAcceptEncoding } from '../http/compress-pages.js'
import { newRequestId, sendLogged } from '../http/request-log.js'
import { pickLanguage } from '../i18n/index.js'
import type { Lru } from '../lib/lru.js'
import { attributeText } from '../security/captcha.js'
import { sharedTokenWindow } from '../security/tokens.js'
import { pageVariant, type StaticPage } from './static-page.js'

/**
 * The cache key of a link's plain checkout page: its version, the branding's, the language and the
 * window of its shared form token (which the window and the link name fully). A deposit link's
 * page shows what was paid and the balance, so its key names `paid_total` too: a part paid makes
 * the next visitor's page anew, never a stale balance.
 */
export function pageKey(
  link: Link & Pick<LinkCounters, 'paidTotal'>,
  brandVersion: number,
  lang: Language,
  now: number,
): string {
  const paid = link.partialMinAmount === null ? '' : `|${link.paidTotal}`
  return `${link.id}|${link.updatedAt}${paid}|${brandVersion}|${lang}|${sharedTokenWindow(now)}`
}

/** The `?lang=` of a plain checkout request ('' for none), or null when it asks for more. */
export function plainQuery(url: string): string | null {
  const q = url.indexOf('?')
  if (q < 0) return ''
  const m = /^lang=(ar|fr|en)$/.exec(url.slice(q + 1))
  return m ? (m[1] as string) : null
}

/** The slug of a `/l/:slug` request URL, or null (any other path, or one that needs decoding). */
function checkoutSlug(url: string): string | null {
  const path = url.indexOf('/', url.indexOf('//') + 2)
  if (path < 0) return null
  const end = url.indexOf('?', path)
  const m = /^\/l\/([\w-]+)$/.exec(url.slice(path, end < 0 ? undefined : end))
  return m ? (m[1] as string) : null
}

/** What answering a prepared page needs: the app's dependencies of these names. */
export type PreparedPageDeps = Pick<
  AppDeps,
  'linkCache' | 'clock' | 'log' | 'brand' | 'captcha' | 'secrets'
>

/**
 * `GET /l/:slug` for a page already prepared, answered before the request is routed (see
 * createApp): the prepared bytes and headers, and the line the middleware would write, from
 * memory alone and without a promise. Undefined for any other request — another path or method,
 * a link not in the read cache or changed since, unavailable, a prefilled form, a page not
 * prepared yet, Workers (no read cache) — which the app then routes as usual.
 */
export function preparedCheckoutPage(
  deps: PreparedPageDeps,
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
    // The branding kept is the one read with the link, or the page is routed and made again.
    const brand = deps.brand.current()
    if (brand.version !== link.brandingVersion) return undefined
    const lang = pickLanguage({
      query,
      link: link.language,
      acceptLanguage: request.headers.get('accept-language') ?? undefined,
      fallback: brand.defaultLanguage,
    })
    const page = pageCache.get(pageKey(link, brand.version, lang, started))
    if (!page) return undefined
    const captcha = deps.captcha
    // Each answer carries its own captcha challenge, spliced into the prepared bytes.
    const fill =
      captcha && (() => attributeText(captcha.challenge(deps.secrets.sessionSecret, started)))
    const chosen = pageVariant(page, clientAcceptEncoding(request), fill)
    return sendLogged(
      deps,
      { started, requestId: newRequestId(), method: 'GET', route: '/l/:slug' },
      200,
      chosen.body as Uint8Array<ArrayBuffer>,
      chosen.headers,
    )
  }
}
