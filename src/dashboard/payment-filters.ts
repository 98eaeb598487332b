/**
 * The payments list's filters as they travel in the query string (status, link, from, to, cursor),
 * shared by the page and the CSV export so both show the same payments. Dates are Algiers days.
 */
import { PAYMENT_STATUSES, type PaymentStatus } from '../../db/schema.js'
import { type Cursor, decodeCursor } from '../data/paging.js'
import type { PaymentFilters } from '../data/payments.js'
import { algiersDayStart, algiersNextDayStart } from './algiers-time.js'

/** The filter values as typed, to fill the filter form again. */
export type FilterValues = { status: string; link: string; from: string; to: string }

export type ParsedFilters = {
  values: FilterValues
  filters: PaymentFilters
  cursor: Cursor | undefined
  /** Names of the filters that are not valid (nothing is listed while there are any). */
  invalid: string[]
}

const LINK_ID = /^[A-Za-z0-9_]{1,64}$/

/** Reads the filters from a query; an empty value means "no filter". */
export function parsePaymentFilters(query: Record<string, string | undefined>): ParsedFilters {
  const text = (k: string) => (query[k] ?? '').trim().slice(0, 100)
  const values: FilterValues = {
    status: text('status'),
    link: text('link'),
    from: text('from'),
    to: text('to'),
  }
  const filters: PaymentFilters = {}
  const invalid: string[] = []
  if (values.status !== '') {
    const status = PAYMENT_STATUSES.find((s) => s === values.status)
    if (status) filters.status = status as PaymentStatus
    else invalid.push('status')
  }
  if (values.link !== '') {
    if (LINK_ID.test(values.link)) filters.linkId = values.link
    else invalid.push('link')
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
  return { values, filters, cursor, invalid }
}

/** The query string of a set of filters (empty ones left out), for links and the export. */
export function filterQuery(values: FilterValues, extra: Record<string, string> = {}): string {
  const params = new URLSearchParams()
  for (const [k, v] of Object.entries({ ...values, ...extra })) if (v !== '') params.set(k, v)
  const text = params.toString()
  return text === '' ? '' : `?${text}`
}
