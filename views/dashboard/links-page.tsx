import type { LinkWithStats } from '../../src/data/links.js'
import type { SearchProblem } from '../../src/data/search.js'
import type { LinkStatus } from '../../src/domain/link-status.js'
import { Field } from '../field.js'
import { type DashContext, DashLayout } from './layout.js'
import { LinksTable } from './links-table.js'
import { Notice } from './parts.js'
import { SearchField, searchProblemText } from './search-parts.js'

/** Which links the list shows (`?source=`): without the till's sales (the default), them, all. */
export type LinksSource = '' | 'till' | 'all'

const SOURCE_LABELS = {
  '': 'linksSourceOwn',
  till: 'linksSourceTill',
  all: 'linksSourceAll',
} as const

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
  /** The list's source filter; null when the one asked for is not one of them. */
  source?: LinksSource | null
}) {
  const { ctx } = props
  const t = ctx.t
  const search = props.search ?? { value: '' }
  const source = props.source === undefined ? '' : props.source
  const filtered = search.value !== '' || source !== ''
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
          <Field id="f-source" label={t('linksSource')} as="select" attrs={{ name: 'source' }} wrap>
            {(['', 'till', 'all'] as const).map((s) => (
              <option value={s} selected={source === s}>
                {t(SOURCE_LABELS[s])}
              </option>
            ))}
          </Field>
          <button type="submit" class="small">
            {t('searchButton')}
          </button>
          {filtered ? <a href="/dashboard/links">{t('searchClear')}</a> : null}
        </form>
        {search.problem ? (
          <p class="alert" role="alert">
            {searchProblemText(ctx, search.problem)}
          </p>
        ) : source === null ? (
          <p class="alert" role="alert">
            {t('badFilter', { field: 'source' })}
          </p>
        ) : props.links.length === 0 ? (
          <p class="muted">
            {t(
              search.value !== '' ? 'searchNoLinks' : source === '' ? 'noLinks' : 'linksSourceNone',
            )}
          </p>
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
