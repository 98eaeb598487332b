import type { LinkWithStats } from '../../src/data/links.js'
import type { SearchProblem } from '../../src/data/search.js'
import { SEARCH_MAX_CHARS } from '../../src/data/search.js'
import { formatAmount, formatDateTime } from '../../src/i18n/index.js'
import type { DashContext } from './layout.js'
import { linkAmountText } from './parts.js'

/** The search box of a filter form (`q`): one text for every searched field. */
export function SearchField(props: { ctx: DashContext; value: string; placeholder: string }) {
  return (
    <div class="search">
      <label for="f-q">{props.ctx.t('searchLabel')}</label>
      <input
        type="search"
        id="f-q"
        name="q"
        dir="auto"
        value={props.value}
        maxlength={SEARCH_MAX_CHARS}
        placeholder={props.placeholder}
        autocomplete="off"
      />
    </div>
  )
}

/** Why a search was refused, in the page's language. */
export function searchProblemText(ctx: DashContext, problem: SearchProblem): string {
  return ctx.t(problem === 'too_long' ? 'searchTooLong' : 'searchTooShort')
}

/**
 * The links whose title matches a search on the payments page, above the matching payments (only
 * when some do: most searches are for a customer).
 */
export function LinkMatches(props: {
  ctx: DashContext
  links: LinkWithStats[]
  moreHref: string | null
}) {
  const { ctx } = props
  const t = ctx.t
  return (
    <section aria-labelledby="link-matches">
      <h2 id="link-matches">{t('searchLinksFound')}</h2>
      <div class="table-wrap">
        <table>
          <thead>
            <tr>
              <th scope="col">{t('colTitle')}</th>
              <th scope="col" class="num">
                {t('colAmount')}
              </th>
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
                  <a href={`/dashboard/links/${link.id}`}>{link.title}</a>
                </td>
                <td class="num">{linkAmountText(ctx, link)}</td>
                <td class="num">{link.paidCount}</td>
                <td class="num">{formatAmount(link.paidTotal, ctx.lang)}</td>
                <td class="nowrap">{formatDateTime(link.createdAt, ctx.lang)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {props.moreHref ? (
        <p>
          <a href={props.moreHref}>{t('searchMoreLinks')}</a>
        </p>
      ) : null}
      <h2>{t('searchPaymentsFound')}</h2>
    </section>
  )
}
