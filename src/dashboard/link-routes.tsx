/** The links list, a link's page, and turning a link off, on, or deleting one nobody has paid. */
import { Hono } from 'hono'
import { LinkDetailPage } from '../../views/dashboard/link-detail-page.js'
import { LinksPage, type LinksSource } from '../../views/dashboard/links-page.js'
import type { LinkSourceFilter, LinkWithStats } from '../data/links.js'
import { deleteLinkIfUnused, getLinkById, linkHasPayments, listLinks } from '../data/links.js'
import { decodeCursor } from '../data/paging.js'
import { countPaymentsBeyondMax } from '../data/payments.js'
import { parseSearch, SEARCH_MAX_CHARS } from '../data/search.js'
import { linkStatus } from '../domain/link-status.js'
import { linkUrls } from '../domain/public-urls.js'
import { localHostOf } from '../lib/local-address.js'
import { auditLinkDeleted, auditLinkResult } from '../links/audit.js'
import { updateLinkFromBody } from '../links/service.js'
import { linkNotFoundPage } from '../routes/error-pages.js'
import { type DashC, type DashEnv, dashContext } from './context.js'
import { mailNotice } from './mail-notice.js'
import type { DashKey } from './messages.js'
import { payButtonSnippet, shareLinks } from './share-links.js'

const PAGE_SIZE = 50

// What a redirect after a change asks the next page to say (`?done=saved`).
const DONE: Record<string, DashKey> = {
  created: 'linkCreated',
  saved: 'linkSaved',
  deactivated: 'linkDeactivated',
  activated: 'linkActivated',
  deleted: 'linkDeleted',
}

function doneNotice(c: DashC): string | undefined {
  const key = DONE[c.req.query('done') ?? '']
  return key ? c.get('dt')(key) : undefined
}

export const linkRoutes = new Hono<DashEnv>()

/**
 * The list's `source` as the page offers it: nothing, the links without the till's sales (a till
 * makes one link per sale, which would bury the merchant's own); `till`, the sales alone; `all`.
 * Never the links checkouts pay through: each is a shop's order, shown as its checkout.
 */
const SOURCES: Record<LinksSource, LinkSourceFilter> = {
  '': 'own',
  till: 'till',
  all: 'not_checkout',
}

async function listPage(c: DashC) {
  const cursorText = c.req.query('cursor')
  const cursor = cursorText ? (decodeCursor(cursorText) ?? undefined) : undefined
  // The search box (`q`, a part of the title); a refused text lists nothing and says why.
  const q = (c.req.query('q') ?? '').trim().slice(0, SEARCH_MAX_CHARS * 2)
  const search = q === '' ? undefined : parseSearch(q)
  const sourceText = (c.req.query('source') ?? '').trim()
  const source = Object.hasOwn(SOURCES, sourceText) ? (sourceText as LinksSource) : undefined
  const refused = (search && !search.ok) || source === undefined
  const sourceFilter = source === undefined ? undefined : SOURCES[source]
  const page = refused
    ? { items: [], nextCursor: null }
    : await listLinks(c.get('db'), {
        limit: PAGE_SIZE,
        ...(cursor ? { cursor } : {}),
        ...(sourceFilter ? { source: sourceFilter } : {}),
        ...(search?.ok ? { search: search.term } : {}),
      })
  const now = c.get('clock')()
  const params = new URLSearchParams()
  if (q !== '') params.set('q', q)
  if (source) params.set('source', source)
  const base = `/dashboard/links${params.size > 0 ? `?${params}` : ''}`
  const more = (next: string) =>
    `${base}${params.size > 0 ? '&' : '?'}cursor=${encodeURIComponent(next)}`
  return c.html(
    <LinksPage
      ctx={dashContext(c)}
      links={page.items.map((link) => ({ ...link, status: linkStatus(link, link, now) }))}
      nextHref={page.nextCursor ? more(page.nextCursor) : null}
      firstHref={cursor ? base : null}
      notice={doneNotice(c)}
      mailNotice={mailNotice(c)}
      search={{ value: q, ...(search && !search.ok ? { problem: search.problem } : {}) }}
      source={source ?? null}
    />,
    refused ? 400 : 200,
  )
}

linkRoutes.get('/links', listPage)

async function detailPage(
  c: DashC,
  link: LinkWithStats,
  status: 200 | 409 = 200,
  notice?: { text: string; kind: 'ok' | 'error' },
) {
  const text = doneNotice(c)
  const publicUrl = c.get('config').publicUrl
  const url = linkUrls(publicUrl, link.slug).url
  return c.html(
    <LinkDetailPage
      ctx={dashContext(c)}
      link={link}
      status={linkStatus(link, link, c.get('clock')())}
      url={url}
      hasPayments={await linkHasPayments(c.get('db'), link.id)}
      beyondMaxPayments={await countPaymentsBeyondMax(c.get('db'), link.id)}
      notice={notice ?? (text ? { text } : undefined)}
      share={shareLinks(link, url)}
      payButton={payButtonSnippet(link, url)}
      localHost={localHostOf(publicUrl)}
    />,
    status,
  )
}

linkRoutes.get('/links/:id', async (c) => {
  const link = await getLinkById(c.get('db'), c.req.param('id'))
  return link ? detailPage(c, link) : linkNotFoundPage(c)
})

/** The merchant's on/off switch, through the same update as the API's `{"active": …}`. */
async function setActive(c: DashC, active: boolean) {
  const body = { active }
  const result = await updateLinkFromBody(c.var, c.req.param('id') ?? '', body)
  await auditLinkResult(c, result, body)
  if (!result.ok) return linkNotFoundPage(c)
  return c.redirect(
    `/dashboard/links/${result.link.id}?done=${active ? 'activated' : 'deactivated'}`,
    303,
  )
}

linkRoutes.post('/links/:id/deactivate', (c) => setActive(c, false))
linkRoutes.post('/links/:id/activate', (c) => setActive(c, true))

linkRoutes.post('/links/:id/delete', async (c) => {
  const id = c.req.param('id')
  // One conditional DELETE: a payment started meanwhile keeps the link.
  if (await deleteLinkIfUnused(c.get('db'), id)) {
    await auditLinkDeleted(c, id)
    return c.redirect('/dashboard/links?done=deleted', 303)
  }
  const link = await getLinkById(c.get('db'), id)
  if (!link) return linkNotFoundPage(c)
  return detailPage(c, link, 409, { text: c.get('dt')('cannotDelete'), kind: 'error' })
})
