/** `/api/v1/payments`: payments newest first with filters, and one payment by id. */
import { Hono } from 'hono'
import { paymentScopeOf, withinScope } from '../../auth/visibility.js'
import { getPaymentWithin, listPayments, type PaymentFilters } from '../../data/payments.js'
import type { AppEnv } from '../../deps.js'
import { apiError, invalidFields } from '../errors.js'
import { parseQuery } from '../query.js'
import { toPaymentObject } from './objects.js'
import { type ListPaymentsQuery, listPaymentsQuery } from './schemas.js'

export const paymentApiRoutes = new Hono<AppEnv>()

/** The query's filters for listPayments, or the fields that contradict each other. */
function filters(
  q: ListPaymentsQuery,
): { ok: true; value: PaymentFilters } | { ok: false; fields: Record<string, string> } {
  const fields: Record<string, string> = {}
  if (q.link !== undefined && q.link_id !== undefined && q.link !== q.link_id)
    fields.link = 'link is another name for link_id and must not differ from it'
  if (q.from !== undefined && q.to !== undefined && q.to <= q.from)
    fields.to = 'to must not be before from'
  if (Object.keys(fields).length > 0) return { ok: false, fields }
  const linkId = q.link_id ?? q.link
  return {
    ok: true,
    value: {
      ...(q.status ? { status: q.status } : {}),
      ...(linkId !== undefined ? { linkId } : {}),
      ...(q.from !== undefined ? { createdFrom: q.from } : {}),
      ...(q.to !== undefined ? { createdTo: q.to } : {}),
      ...(q.q !== undefined ? { search: q.q } : {}),
      ...(q.source !== undefined ? { source: q.source } : {}),
    },
  }
}

paymentApiRoutes.get('/payments', async (c) => {
  const query = parseQuery(c, listPaymentsQuery)
  if (!query.ok) return invalidFields(c, 'invalid_query', query.fields)
  const where = filters(query.value)
  if (!where.ok) return invalidFields(c, 'invalid_query', where.fields)
  const { limit, cursor } = query.value
  // The same view of the payments as the dashboard's (src/auth/visibility.ts): the route needs
  // `payments.read`, which sees them all, so this narrows nothing unless the policy changes.
  const scope = paymentScopeOf(c.get('principal')!, c.get('clock')())
  if (!scope) return c.json({ data: [], has_more: false, next_cursor: null })
  const page = await listPayments(c.get('db'), {
    ...withinScope(where.value, scope),
    ...(limit !== undefined ? { limit } : {}),
    ...(cursor ? { cursor } : {}),
  })
  const publicUrl = c.get('config').publicUrl
  return c.json({
    data: page.items.map((payment) => toPaymentObject(payment, { publicUrl })),
    has_more: page.nextCursor !== null,
    next_cursor: page.nextCursor,
  })
})

paymentApiRoutes.get('/payments/:id', async (c) => {
  const scope = paymentScopeOf(c.get('principal')!, c.get('clock')())
  const payment = scope ? await getPaymentWithin(c.get('db'), c.req.param('id'), scope) : null
  if (!payment) return apiError(c, 404, 'not_found', 'No payment has this id.')
  return c.json(toPaymentObject(payment, { publicUrl: c.get('config').publicUrl }))
})
