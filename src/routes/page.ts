/** Builds the per-request context of a customer page: language, translator, nonce, test banner. */
import type { Context, MiddlewareHandler } from 'hono'
import type { PageContext } from '../../views/layout.js'
import type { Language } from '../config.js'
import type { AppEnv } from '../deps.js'
import { pickLanguage, translator } from '../i18n/index.js'

/** Chooses the page language (the customer's `?lang=`, the link's, the browser's, the default). */
export function pageLanguage(c: Context<AppEnv>, linkLanguage?: string | null): Language {
  return pickLanguage({
    query: c.req.query('lang'),
    link: linkLanguage,
    acceptLanguage: c.req.header('accept-language'),
    fallback: c.get('brand').current().defaultLanguage,
  })
}

/**
 * The context every view takes. `switcher` shows the language links for this path. The branding
 * is the one the handler (or `freshBrand`) made current for this request.
 */
export function pageContext(c: Context<AppEnv>, lang: Language, switcher = true): PageContext {
  const url = new URL(c.req.url)
  url.searchParams.delete('lang')
  const brand = c.get('brand').current()
  const path = url.pathname + (url.searchParams.size > 0 ? `?${url.searchParams}` : '')
  return {
    lang,
    t: translator(lang),
    nonce: c.get('secureHeadersNonce') ?? '',
    testMode: c.get('config').gatewayMode !== 'live',
    merchantName: brand.name,
    brand,
    ...(switcher ? { switchPath: path } : {}),
  }
}

/** Makes the stored branding current before a page's handler runs (see data/brand-store.ts). */
export const freshBrand: MiddlewareHandler<AppEnv> = async (c, next) => {
  await c.get('brand').fresh(c.get('db'))
  await next()
}
