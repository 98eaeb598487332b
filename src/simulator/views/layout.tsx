/** The simulator's page shell: language, direction, stylesheet and the "no real money" banner. */
import type { Child } from 'hono/jsx'
import type { Language } from '../state.js'

export interface LayoutProps {
  lang: Language
  title: string
  banner: string
  /** The simulator's base path, for the stylesheet link. */
  base: string
  wide?: boolean
  children?: Child
}

/** Wraps a simulator page. */
export function Layout(props: LayoutProps) {
  return (
    <html lang={props.lang} dir={props.lang === 'ar' ? 'rtl' : 'ltr'}>
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="robots" content="noindex" />
        <title>{props.title}</title>
        <link rel="stylesheet" href={`${props.base}/assets/simulator.css`} />
      </head>
      <body>
        <header>
          <p class="banner" role="note">
            {props.banner}
          </p>
        </header>
        <main class={props.wide ? 'wide' : undefined}>{props.children}</main>
      </body>
    </html>
  )
}
