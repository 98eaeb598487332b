/**
 * The payments list's filters as they travel in the query string (search, status, link, from, to,
 * cursor), shared by the page and the CSV export so both show the same payments. Dates are
 * Algiers days.
 */
import { LINK_SOURCES, PAYMENT_STATUSES, type PaymentStatus } from '../../db/schema.js'
import { type Cursor, decodeCursor } from '../data/paging.js'
import type { PaymentFilters } from '../data/payments.js'
import { parseSearch, SEARCH_MAX_CHARS, type SearchProblem } from '../data/search.js'
import { algiersDayStart, algiersNextDayStart } from '../domain/algiers-time.js'

/** The filter values as typed, to fill the filter form again. */
export type FilterValues = { q: string; status: string; link: string; from: string; to: string }

export type ParsedFilters = {
  values: FilterValues
  filters: PaymentFilters
  cursor: Cursor | undefined
  /** Names of the filters that are not valid (nothing is listed while there are any). */
  invalid: string[]
  /** Why the search text (`q`) is not valid, when it is not. */
  searchProblem?: SearchProblem
}

const LINK_ID = /^[A-Za-z0-9_]{1,64}$/

/** Reads the filters from a query; an empty value means "no filter". */
export function parsePaymentFilters(query: Record<string, string | undefined>): ParsedFilters {
  const text = (k: string) => (query[k] ?? '').trim().slice(0, 100)
  const values: FilterValues = {
    // Kept whole (up to a bound) so that a text too long is refused rather than cut and searched.
    q: (query.q ?? '').trim().slice(0, SEARCH_MAX_CHARS * 2),
    status: text('status'),
    link: text('link'),
    from: text('from'),
    to: text('to'),
  }
  const filters: PaymentFilters = {}
  const invalid: string[] = []
  let searchProblem: SearchProblem | undefined
  if (values.q !== '') {
    const search = parseSearch(values.q)
    if (search.ok) filters.search = search.term
    else {
      invalid.push('q')
      searchProblem = search.problem
    }
  }
  if (values.status !== '') {
    const status = PAYMENT_STATUSES.find((s) => s === values.status)
    if (status) filters.status = status as PaymentStatus
    else invalid.push('status')
  }
  if (values.link !== '') {
    if (LINK_ID.test(values.link)) filters.linkId = values.link
    else invalid.push('link')
  }
  // Not in the filter form (the till's report links to it); kept apart from `values`.
  const source = text('source')
  if (source !== '') {
    const known = LINK_SOURCES.find((s) => s === source)
    if (known) filters.source = known
    else invalid.push('source')
  }
  if (values.from !== '') {
    const from = algiersDayStart(values.from)
    if (from === null) invalid.push('from')
    else filters.createdFrom = from
  }
  if (values.to !== '') {
    const to = algiersNextDayStart(values.to)
    if (to === null) invalid.push('to')
    else filters.createdTo = to
  }
  const cursorText = text('cursor')
  const cursor = cursorText === '' ? undefined : (decodeCursor(cursorText) ?? undefined)
  if (cursorText !== '' && !cursor) invalid.push('cursor')
  return { values, filters, cursor, invalid, ...(searchProblem ? { searchProblem } : {}) }
}

/** The query string of a set of filters (empty ones left out), for links and the export. */
export function filterQuery(values: FilterValues, extra: Record<string, string> = {}): string {
  const params = new URLSearchParams()
  for (const [k, v] of Object.entries({ ...values, ...extra })) if (v !== '') params.set(k, v)
  const text = params.toString()
  return text === '' ? '' : `?${text}`
}
