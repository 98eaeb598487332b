import type { LinkWithStats } from '../../src/data/links.js'
import type { SearchProblem } from '../../src/data/search.js'
import type { LinkStatus } from '../../src/domain/link-status.js'
import { formatAmount, formatDateTime } from '../../src/i18n/index.js'
import { type DashContext, DashLayout } from './layout.js'
import { LinkStatusBadge, linkAmountText, Notice } from './parts.js'
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
          <div class="table-wrap">
            <table class="stack">
              <thead>
                <tr>
                  <th scope="col">{t('colTitle')}</th>
                  <th scope="col" class="num">
                    {t('colAmount')}
                  </th>
                  <th scope="col">{t('colStatus')}</th>
                  <th scope="col" class="num">
                    {t('colPaid')}
                  </th>
                  <th scope="col" class="num">
                    {t('colCollected')}
                  </th>
                  <th scope="col">{t('colCreated')}</th>
                </tr>
              </thead>
              <tbody>
                {props.links.map((link) => (
                  <tr data-link-id={link.id}>
                    <td data-label={t('colTitle')}>
                      <a dir="auto" href={`/dashboard/links/${link.id}`}>
                        {link.title}
                      </a>
                    </td>
                    <td class="num" data-label={t('colAmount')}>
                      {linkAmountText(ctx, link)}
                    </td>
                    <td data-label={t('colStatus')}>
                      <LinkStatusBadge ctx={ctx} status={link.status} />
                    </td>
                    <td class="num" data-label={t('colPaid')}>
                      {link.paidCount}
                    </td>
                    <td class="num" data-label={t('colCollected')}>
                      {formatAmount(link.paidTotal, ctx.lang)}
                    </td>
                    <td class="nowrap" data-label={t('colCreated')}>
                      {formatDateTime(link.createdAt, ctx.lang)}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
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
