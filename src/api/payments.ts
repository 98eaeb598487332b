/** `/api/v1/payments`: payments newest first with filters, and one payment by id. */
import { Hono } from 'hono'
import type { AppEnv } from '../app-deps.js'
import { getPaymentById, listPayments, type PaymentFilters } from '../data/payments.js'
import { apiError, invalidFields } from './errors.js'
import { toPaymentObject } from './objects.js'
import { parseQuery } from './query.js'
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
  const page = await listPayments(c.get('db'), {
    ...where.value,
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
  const payment = await getPaymentById(c.get('db'), c.req.param('id'))
  if (!payment) return apiError(c, 404, 'not_found', 'No payment has this id.')
  return c.json(toPaymentObject(payment, { publicUrl: c.get('config').publicUrl }))
})
