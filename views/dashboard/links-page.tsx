import type { LinkWithStats } from '../../src/data/links.js'
import type { LinkStatus } from '../../src/domain/link-status.js'
import { formatAmount, formatDateTime } from '../../src/i18n/index.js'
import { type DashContext, DashLayout } from './layout.js'
import { LinkStatusBadge, linkAmountText, Notice } from './parts.js'

/** The links list: title, price, state, paid count and total, creation time; a page at a time. */
export function LinksPage(props: {
  ctx: DashContext
  links: (LinkWithStats & { status: LinkStatus })[]
  nextHref: string | null
  firstHref: string | null
  notice?: string | undefined
}) {
  const { ctx } = props
  const t = ctx.t
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
        {props.links.length === 0 ? (
          <p class="muted">{t('noLinks')}</p>
        ) : (
          <div class="table-wrap">
            <table>
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
                    <td>
                      <a dir="auto" href={`/dashboard/links/${link.id}`}>
                        {link.title}
                      </a>
                    </td>
                    <td class="num">{linkAmountText(ctx, link)}</td>
                    <td>
                      <LinkStatusBadge ctx={ctx} status={link.status} />
                    </td>
                    <td class="num">{link.paidCount}</td>
                    <td class="num">{formatAmount(link.paidTotal, ctx.lang)}</td>
                    <td class="nowrap">{formatDateTime(link.createdAt, ctx.lang)}</td>
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
