/** The links table of the links list and of a search's matching links (stacks on phones). */
import type { LinkWithStats } from '../../src/data/links.js'
import type { LinkStatus } from '../../src/domain/link-status.js'
import { formatAmount, formatDateTime } from '../../src/i18n/index.js'
import type { DashContext } from './layout.js'
import { LinkStatusBadge, linkAmountText } from './parts.js'

/** Title, price, state, paid count and total, creation time: one row a link. */
export function LinksTable(props: {
  ctx: DashContext
  links: (LinkWithStats & { status: LinkStatus })[]
}) {
  const { ctx } = props
  const t = ctx.t
  return (
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
  )
}
