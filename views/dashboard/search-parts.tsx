import type { LinkWithStats } from '../../src/data/links.js'
import type { SearchProblem } from '../../src/data/search.js'
import { SEARCH_MAX_CHARS } from '../../src/data/search.js'
import type { LinkStatus } from '../../src/domain/link-status.js'
import type { DashContext } from './layout.js'
import { LinksTable } from './links-table.js'

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
  links: (LinkWithStats & { status: LinkStatus })[]
  moreHref: string | null
}) {
  const { ctx } = props
  const t = ctx.t
  return (
    <section aria-labelledby="link-matches">
      <h2 id="link-matches">{t('searchLinksFound')}</h2>
      <LinksTable ctx={ctx} links={props.links} />
      {props.moreHref ? (
        <p>
          <a href={props.moreHref}>{t('searchMoreLinks')}</a>
        </p>
      ) : null}
      <h2>{t('searchPaymentsFound')}</h2>
    </section>
  )
}
