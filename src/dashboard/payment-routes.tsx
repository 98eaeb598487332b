/** The payments list with its filters and paging, and the same payments as a CSV download. */
import { Hono } from 'hono'
import type { Payment } from '../../db/schema.js'
import { DashMessagePage } from '../../views/dashboard/layout.js'
import { PaymentDetailPage } from '../../views/dashboard/payment-detail-page.js'
import { PaymentsPage } from '../../views/dashboard/payments-page.js'
import { auditRequest } from '../auth/audit-request.js'
import { allows } from '../auth/principal.js'
import { paymentScopeOf, withinScope } from '../auth/visibility.js'
import { linkHeads, linkTitles, listLinks } from '../data/links.js'
import { type Cursor, decodeCursor, MAX_PAGE_SIZE } from '../data/paging.js'
import { listPayments, type PaymentFilters, type PaymentScope } from '../data/payments.js'
import { toAlgiersIso } from '../domain/algiers-time.js'
import { linkStatus } from '../domain/link-status.js'
import { type DashC, type DashEnv, dashContext } from './context.js'
import { CSV_HEADER, type CsvLink, csvLine, paymentCsvRow, textStream } from './csv.js'
import { loadPaymentDetail, paymentIdParam } from './payment-detail.js'
import { filterQuery, parsePaymentFilters } from './payment-filters.js'

const PAGE_SIZE = 50
/** How many links a search shows above its payments; the links page lists them all. */
const LINK_MATCHES = 5
/** The most rows one export holds; narrow the dates for more. */
export const CSV_MAX_ROWS = 100_000

/**
 * The payments the request's principal may see (src/auth/visibility.ts); null for none, which
 * the route's permission has already refused.
 */
function scopeOf(c: DashC): PaymentScope | null {
  return paymentScopeOf(c.get('principal')!, c.get('clock')())
}

/**
 * The recent links for the filter, plus the links of the rows shown that are older than those;
 * only the latter for a role that may not read the links (a cashier).
 */
async function filterLinks(
  c: DashC,
  ids: Iterable<string>,
): Promise<{ id: string; title: string }[]> {
  const readsLinks = allows(c.get('principal')!, 'links.read')
  const recent = readsLinks ? (await listLinks(c.get('db'), { limit: MAX_PAGE_SIZE })).items : []
  const out = new Map(recent.map((l) => [l.id, l.title]))
  const older = await linkTitles(
    c.get('db'),
    [...new Set(ids)].filter((id) => !out.has(id)),
  )
  for (const [id, title] of older) out.set(id, title)
  return [...out].map(([id, title]) => ({ id, title }))
}

export const paymentRoutes = new Hono<DashEnv>()

paymentRoutes.get('/payments', async (c) => {
  const parsed = parsePaymentFilters(c.req.query())
  const valid = parsed.invalid.length === 0
  const scope = scopeOf(c)
  const page =
    valid && scope
      ? await listPayments(c.get('db'), {
          ...withinScope(parsed.filters, scope),
          limit: PAGE_SIZE,
          ...(parsed.cursor ? { cursor: parsed.cursor } : {}),
        })
      : { items: [] as Payment[], nextCursor: null }
  const ids = page.items.map((p) => p.linkId)
  const readsLinks = allows(c.get('principal')!, 'links.read')
  if (parsed.filters.linkId && readsLinks) ids.push(parsed.filters.linkId)
  // A search's first page also shows the links whose title matches (payments are the list).
  const search = parsed.filters.search
  const found =
    search && valid && !parsed.cursor && readsLinks
      ? await listLinks(c.get('db'), { search, limit: LINK_MATCHES })
      : undefined
  const matches = found && found.items.length > 0 ? found : undefined
  return c.html(
    <PaymentsPage
      ctx={dashContext(c)}
      payments={page.items}
      links={await filterLinks(c, ids)}
      values={parsed.values}
      invalid={parsed.invalid}
      csvHref={`/dashboard/payments.csv${filterQuery(parsed.values)}`}
      nextHref={
        page.nextCursor
          ? `/dashboard/payments${filterQuery(parsed.values, { cursor: page.nextCursor })}`
          : null
      }
      firstHref={parsed.cursor ? `/dashboard/payments${filterQuery(parsed.values)}` : null}
      linkMatches={
        matches && {
          links: matches.items.map((link) => ({
            ...link,
            status: linkStatus(link, link, c.get('clock')()),
          })),
          moreHref: matches.nextCursor
            ? `/dashboard/links?q=${encodeURIComponent(parsed.values.q)}`
            : null,
        }
      }
      searchProblem={parsed.searchProblem}
    />,
    valid ? 200 : 400,
  )
})

paymentRoutes.get('/payments.csv', async (c) => {
  const parsed = parsePaymentFilters(c.req.query())
  if (parsed.invalid.length > 0) {
    const dt = c.get('dt')
    const only = parsed.invalid.length === 1 && parsed.searchProblem
    const text = only
      ? dt(parsed.searchProblem === 'too_long' ? 'searchTooLong' : 'searchTooShort')
      : dt('badFilter', { field: parsed.invalid.join(', ') })
    return c.text(text, 400)
  }
  // The route needs `exports`, which every role with one reads all payments; the scope is the
  // same rule as the list's all the same, should a narrower role ever export.
  const scope = scopeOf(c)
  if (!scope) return c.text(c.get('dt')('notAllowedText'), 403)
  const day = toAlgiersIso(c.get('clock')()).slice(0, 10)
  // The filters' values, except the search's text (it may be a customer's name or phone).
  const { q, ...shown } = parsed.values
  await auditRequest(c, {
    action: 'export_downloaded',
    detail: {
      export: 'payments.csv',
      filters: Object.fromEntries(Object.entries(shown).filter(([, v]) => v !== '')),
      search: q !== '',
    },
  })
  // Streamed a page of payments at a time: the whole file is never in memory.
  return c.body(textStream(csvChunks(c, withinScope(parsed.filters, scope))), 200, {
    'Content-Type': 'text/csv; charset=utf-8; header=present',
    'Content-Disposition': `attachment; filename="paylinks-payments-${day}.csv"`,
  })
})

/** The export's text: the header, then one piece per page of matching payments, newest first. */
async function* csvChunks(c: DashC, filters: PaymentFilters): AsyncGenerator<string> {
  const db = c.get('db')
  const publicUrl = c.get('config').publicUrl
  const linksSeen = new Map<string, CsvLink>()
  // A byte order mark, so spreadsheet programs read the Arabic and French text as UTF-8.
  yield `\ufeff${csvLine(CSV_HEADER)}`
  // The export holds every matching payment, whatever page the list was showing.
  let cursor: Cursor | undefined
  let rows = 0
  do {
    const page = await listPayments(db, {
      ...filters,
      limit: MAX_PAGE_SIZE,
      ...(cursor ? { cursor } : {}),
    })
    // The titles of the page's links not seen yet, in one query (a till's sales have a link each).
    const unseen = [...new Set(page.items.map((p) => p.linkId))].filter((id) => !linksSeen.has(id))
    const heads = await linkHeads(db, unseen)
    for (const id of unseen) linksSeen.set(id, heads.get(id) ?? { title: '', customFields: null })
    let text = ''
    for (const payment of page.items)
      text += paymentCsvRow(payment, linksSeen.get(payment.linkId), publicUrl)
    if (text !== '') yield text
    rows += page.items.length
    cursor = page.nextCursor ? (decodeCursor(page.nextCursor) ?? undefined) : undefined
  } while (cursor && rows < CSV_MAX_ROWS)
}

/**
 * `/dashboard/payments/:id`: one payment's page; 404 in the dashboard's language when unknown or
 * out of the viewer's sight (a cashier's: another's sale, another day).
 */
paymentRoutes.get('/payments/:id', async (c) => {
  const id = paymentIdParam.safeParse(c.req.param('id'))
  const scope = scopeOf(c)
  const detail =
    id.success && scope
      ? await loadPaymentDetail(c.get('db'), c.get('config'), id.data, scope)
      : null
  const ctx = dashContext(c)
  if (!detail) {
    const t = ctx.t
    const back = { href: '/dashboard/payments', label: t('backToPayments') }
    return c.html(
      <DashMessagePage
        ctx={ctx}
        title={t('notFoundTitle')}
        text={t('paymentNotFound')}
        action={back}
      />,
      404,
    )
  }
  c.header('Cache-Control', 'no-store')
  return c.html(<PaymentDetailPage ctx={ctx} detail={detail} />)
})
