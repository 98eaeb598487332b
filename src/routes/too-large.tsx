/** The customer-facing 413 page: a form sent more than Paylinks reads (see body-limits.ts). */
import type { Context } from 'hono'
import { MessagePage } from '../../views/message-page.js'
import type { AppEnv } from '../app-deps.js'
import type { Language } from '../config.js'
import { pageContext } from './page.js'

/** 413 in `lang`, with a way back to the page the form came from. */
export function tooLargePage(c: Context<AppEnv>, lang: Language, back: string) {
  const ctx = pageContext(c, lang, false)
  return c.html(
    <MessagePage
      ctx={ctx}
      icon="alert"
      title={ctx.t('tooLargeTitle')}
      text={ctx.t('tooLargeText')}
      action={{ href: back, label: ctx.t('tryAgain') }}
    />,
    413,
  )
}
