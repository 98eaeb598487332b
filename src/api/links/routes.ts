/**
 * `/api/v1/links`: list, create, read, change and delete links. A link with payments is never
 * deleted: DELETE removes only a link nobody has started paying, and answers 409 otherwise.
 */
import type { Context } from 'hono'
import { Hono } from 'hono'
import { deleteLinkIfUnused, getLinkById, type LinkWithStats, listLinks } from '../../data/links.js'
import type { AppEnv } from '../../deps.js'
import { auditLinkDeleted, auditLinkResult } from '../../links/audit.js'
import { createLinkFromBody, type LinkResult, updateLinkFromBody } from '../../links/service.js'
import { jsonBodyLimit, readJsonBody } from '../body.js'
import { apiError, invalidFields } from '../errors.js'
import { apiFieldMessages } from '../problem-messages.js'
import { parseQuery } from '../query.js'
import { limitLinkWrites } from '../rate-limit.js'
import { toLinkObject } from './objects.js'
import { listLinksQuery } from './schemas.js'

export const linkApiRoutes = new Hono<AppEnv>()

const linkJson = (c: Context<AppEnv>, link: LinkWithStats) =>
  toLinkObject(link, link, { publicUrl: c.get('config').publicUrl, now: c.get('clock')() })

const noSuchLink = (c: Context<AppEnv>) => apiError(c, 404, 'not_found', 'No link has this id.')

// A checkout's link is changed or closed through its checkout only.
const belongsToCheckout = (c: Context<AppEnv>) =>
  apiError(
    c,
    409,
    'link_belongs_to_checkout',
    'This link is the page of a checkout and changes with it: read or expire the checkout instead.',
  )

/** Answers a create or update result: the link, or the error that explains why not. */
function answer(c: Context<AppEnv>, result: LinkResult, created: boolean) {
  if (result.ok) {
    if (created) {
      const base = c.get('config').publicUrl.replace(/\/+$/, '')
      c.header('Location', `${base}/api/v1/links/${encodeURIComponent(result.link.id)}`)
    }
    return c.json(linkJson(c, result.link), created ? 201 : 200)
  }
  if (result.kind === 'invalid') {
    return invalidFields(c, 'invalid_body', apiFieldMessages(result.problems))
  }
  if (result.kind === 'not_found') return noSuchLink(c)
  if (result.kind === 'checkout') return belongsToCheckout(c)
  return apiError(c, 502, 'gateway_error', result.message)
}

linkApiRoutes.get('/links', async (c) => {
  const query = parseQuery(c, listLinksQuery)
  if (!query.ok) return invalidFields(c, 'invalid_query', query.fields)
  const { limit, cursor, active, source, q } = query.value
  const page = await listLinks(c.get('db'), {
    ...(limit !== undefined ? { limit } : {}),
    ...(cursor ? { cursor } : {}),
    ...(active !== undefined ? { active } : {}),
    // A checkout's link is listed only when asked for: it is the shop's order, read as a checkout.
    source: source ?? 'not_checkout',
    ...(q !== undefined ? { search: q } : {}),
  })
  return c.json({
    data: page.items.map((link) => linkJson(c, link)),
    has_more: page.nextCursor !== null,
    next_cursor: page.nextCursor,
  })
})

linkApiRoutes.post('/links', limitLinkWrites(), jsonBodyLimit(), async (c) => {
  const body = await readJsonBody(c)
  if (!body.ok) return body.response
  const result = await createLinkFromBody(c.var, body.body, { source: 'api' })
  await auditLinkResult(c, result, body.body)
  return answer(c, result, true)
})

linkApiRoutes.get('/links/:id', async (c) => {
  const link = await getLinkById(c.get('db'), c.req.param('id'))
  return link ? c.json(linkJson(c, link)) : noSuchLink(c)
})

linkApiRoutes.patch('/links/:id', limitLinkWrites(), jsonBodyLimit(), async (c) => {
  const body = await readJsonBody(c)
  if (!body.ok) return body.response
  const result = await updateLinkFromBody(c.var, c.req.param('id'), body.body)
  await auditLinkResult(c, result, body.body)
  return answer(c, result, false)
})

linkApiRoutes.delete('/links/:id', limitLinkWrites(), async (c) => {
  const id = c.req.param('id')
  // One conditional DELETE: a payment started meanwhile keeps the link.
  if (await deleteLinkIfUnused(c.get('db'), id)) {
    await auditLinkDeleted(c, id)
    return c.body(null, 204)
  }
  const link = await getLinkById(c.get('db'), id)
  if (!link) return noSuchLink(c)
  if (link.source === 'checkout') return belongsToCheckout(c)
  return apiError(
    c,
    409,
    'link_has_payments',
    'This link has payments and is never deleted; deactivate it with PATCH {"active": false}.',
  )
})
