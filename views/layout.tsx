import { raw } from 'hono/html'
import type { Child } from 'hono/jsx'
import { LANGUAGES, type Language } from '../src/config.js'
import type { Brand } from '../src/domain/brand.js'
import type { PageContext } from '../src/domain/page-context.js'
import { MESSAGES } from '../src/i18n/index.js'
import { FaviconLink } from './favicon.js'
import { BASE_CSS } from './styles.js'

export type { PageContext }

/** The page shell: language, direction, the nonce'd stylesheet, the test-mode banner. */
export function Layout(props: {
  ctx: PageContext
  title: string
  children: Child
  head?: Child
  /** The page's rules: all of the customer stylesheet unless the page needs less. */
  css?: string
  extraCss?: string
}) {
  const { ctx } = props
  return (
    <>
      {raw('<!doctype html>')}
      <html lang={ctx.lang} dir={ctx.t('dir')}>
        <head>
          <meta charset="utf-8" />
          <meta name="viewport" content="width=device-width,initial-scale=1" />
          <meta name="robots" content="noindex" />
          <meta name="color-scheme" content="light" />
          <title>{`${props.title} · ${ctx.merchantName}`}</title>
          <FaviconLink />
          <style nonce={ctx.nonce || undefined}>
            {raw((props.css ?? BASE_CSS) + (props.extraCss ?? '') + brandCss(ctx.brand))}
          </style>
          {props.head}
        </head>
        <body>
          {ctx.testMode ? (
            // The banner is a note beside the page (aside) and the 3020 line the page's footer:
            // landmarks, so everything on the page is in one for a screen reader.
            <aside class="test">{ctx.t('testBanner')}</aside>
          ) : null}
          <div class="wrap">
            <header class="top">
              <span class="merchant" dir="auto">
                {ctx.brand?.logo ? (
                  <img
                    class="logo"
                    src={ctx.brand.logo.src}
                    width={ctx.brand.logo.width}
                    height={ctx.brand.logo.height}
                    alt=""
                  />
                ) : null}
                {ctx.merchantName}
              </span>
              {ctx.switchPath !== undefined ? (
                <LanguageSwitcher
                  lang={ctx.lang}
                  label={ctx.t('chooseLanguage')}
                  path={ctx.switchPath}
                />
              ) : null}
            </header>
            <main>{props.children}</main>
            <footer class="support">{ctx.t('support')}</footer>
          </div>
        </body>
      </html>
    </>
  )
}

/**
 * The brand colour on the buttons and links (white on it meets WCAG AA: checked when it is set,
 * and the format again here, since it goes into a stylesheet), and the logo's size in the header.
 */
export function brandCss(brand: Brand | undefined): string {
  if (!brand) return ''
  const logo = brand.logo
    ? '.merchant{display:inline-flex;align-items:center;gap:.5rem}.merchant .logo{block-size:2.5rem;inline-size:auto;max-inline-size:10rem;object-fit:contain}'
    : ''
  const c = brand.color && /^#[0-9a-fA-F]{6}$/.test(brand.color) ? brand.color : null
  const color = c
    ? `a{color:${c}}button,.btn{background:${c}}.btn.secondary,button.secondary{background:#e3e8ed;color:#1b1f24}header.top{border-block-end:3px solid ${c};margin-block-end:.75rem}.amount{color:${c}}.card.poster{border-block-start:6px solid ${c}}`
    : ''
  return logo + color
}

/** Links to the same page in each language (customer pages and the dashboard). */
export function LanguageSwitcher(props: { lang: Language; label: string; path: string }) {
  const sep = props.path.includes('?') ? '&' : '?'
  return (
    <nav class="lang" aria-label={props.label}>
      {LANGUAGES.map((lang) => (
        <a
          href={`${props.path}${sep}lang=${lang}`}
          lang={lang}
          hreflang={lang}
          aria-current={lang === props.lang ? 'true' : undefined}
        >
          {MESSAGES[lang].languageName}
        </a>
      ))}
    </nav>
  )
}
