import type { LinkWithStats } from '../../src/data/links.js'
import type { SearchProblem } from '../../src/data/search.js'
import type { LinkStatus } from '../../src/domain/link-status.js'
import { type DashContext, DashLayout } from './layout.js'
import { LinksTable } from './links-table.js'
import { Notice } from './parts.js'
import { SearchField, searchProblemText } from './search-parts.js'

/** The links list: title, price, state, paid count and total, creation time; a page at a time. */
export function LinksPage(props: {
  ctx: DashContext
  links: (LinkWithStats & { status: LinkStatus })[]
  nextHref: string | null
  firstHref: string | null
  notice?: string | undefined
  /** Why e-mail receipts are not sent, when they are not. */
  mailNotice?: string | undefined
  /** The search box's text (`q`) and why it was refused, if it was. */
  search?: { value: string; problem?: SearchProblem } | undefined
}) {
  const { ctx } = props
  const t = ctx.t
  const search = props.search ?? { value: '' }
  return (
    <DashLayout ctx={ctx} title={t('linksTitle')} nav="links">
      <section class="card" aria-labelledby="links-title">
        <div class="head">
          <h1 id="links-title">{t('linksTitle')}</h1>
          <a class="btn small" href="/dashboard/links/new">
            {t('navNewLink')}
          </a>
        </div>
        <Notice text={props.notice} />
        {props.mailNotice ? (
          <p class="muted" id="mail-off">
            {props.mailNotice}
          </p>
        ) : null}
        <form class="filters" method="get" action="/dashboard/links">
          <SearchField ctx={ctx} value={search.value} placeholder={t('searchLinksPlaceholder')} />
          <button type="submit" class="small">
            {t('searchButton')}
          </button>
          {search.value !== '' ? <a href="/dashboard/links">{t('searchClear')}</a> : null}
        </form>
        {search.problem ? (
          <p class="alert" role="alert">
            {searchProblemText(ctx, search.problem)}
          </p>
        ) : props.links.length === 0 ? (
          <p class="muted">{t(search.value === '' ? 'noLinks' : 'searchNoLinks')}</p>
        ) : (
          <LinksTable ctx={ctx} links={props.links} />
        )}
        <Pager ctx={ctx} nextHref={props.nextHref} firstHref={props.firstHref} />
      </section>
    </DashLayout>
  )
}

/** Links to the first and the next page, when there are such pages. */
export function Pager(props: {
  ctx: DashContext
  nextHref: string | null
  firstHref: string | null
}) {
  if (!props.nextHref && !props.firstHref) return null
  return (
    <nav class="pager">
      {props.firstHref ? <a href={props.firstHref}>{props.ctx.t('firstPage')}</a> : null}
      {props.nextHref ? (
        <a href={props.nextHref} rel="next">
          {props.ctx.t('nextPage')}
        </a>
      ) : null}
    </nav>
  )
}
