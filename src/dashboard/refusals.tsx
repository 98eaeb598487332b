/**
 * The dashboard's refusal pages: a form without a valid token (403), a link that does not exist
 * (404), a form larger than the dashboard reads (413).
 */
import { DashMessagePage } from '../../views/dashboard/layout.js'
import { type DashC, dashContext } from './context.js'

/** 403: the form's token is missing, forged or stale; nothing was changed. */
export function forbiddenPage(c: DashC): Response | Promise<Response> {
  const ctx = dashContext(c)
  return c.html(
    <DashMessagePage
      ctx={ctx}
      title={ctx.t('forbiddenTitle')}
      text={ctx.t('forbiddenText')}
      action={{ href: '/dashboard', label: ctx.t('backToLinks') }}
    />,
    403,
  )
}

/** 404: no link with this id. */
export function linkNotFoundPage(c: DashC): Response | Promise<Response> {
  const ctx = dashContext(c)
  return c.html(
    <DashMessagePage
      ctx={ctx}
      title={ctx.t('notFoundTitle')}
      text={ctx.t('linkNotFound')}
      action={{ href: '/dashboard', label: ctx.t('backToLinks') }}
    />,
    404,
  )
}

/** 413: the form is over its body limit (see body-limits.ts); nothing was read further or changed. */
export function tooLargePage(c: DashC): Response | Promise<Response> {
  const ctx = dashContext(c)
  return c.html(
    <DashMessagePage
      ctx={ctx}
      title={ctx.t('tooLargeTitle')}
      text={ctx.t('tooLargeText')}
      action={{ href: '/dashboard', label: ctx.t('backToLinks') }}
    />,
    413,
  )
}
