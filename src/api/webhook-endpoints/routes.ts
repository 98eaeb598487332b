/**
 * `/api/v1/webhook-endpoints`: register, list, read, change and delete the endpoints Paylinks
 * sends signed events to; rotate a secret (the old one signs beside the new one for a day); list
 * an endpoint's deliveries and send one again.
 */
import type { Context } from 'hono'
import { Hono } from 'hono'
import type * as z from 'zod'
import { OUTBOUND_EVENT_TYPES } from '../../../db/schema.js'
import type { AppEnv } from '../../deps.js'
import { auditEndpoint } from '../../outbound-webhooks/audit.js'
import {
  deleteEndpoint,
  getEndpoint,
  listEndpoints,
  rotateSecret,
} from '../../outbound-webhooks/endpoints.js'
import {
  changeEndpoint,
  type EndpointResult,
  normalTypes,
  registerEndpoint,
} from '../../outbound-webhooks/service.js'
import { getEndpointDelivery, listEndpointDeliveries, redeliver } from '../../outbox/deliveries.js'
import { jsonBodyLimit, readJsonBody } from '../body.js'
import { apiError, invalidFields } from '../errors.js'
import { parseQuery } from '../query.js'
import { limitLinkWrites } from '../rate-limit.js'
import { pathText } from '../zod-problems.js'
import { toDeliveryObject, toEndpointObject } from './objects.js'
import {
  createEndpointBody,
  listDeliveriesQuery,
  TARGET_PROBLEM_TEXT,
  updateEndpointBody,
} from './schemas.js'

export const webhookEndpointApiRoutes = new Hono<AppEnv>()

const noSuchEndpoint = (c: Context<AppEnv>) =>
  apiError(c, 404, 'not_found', 'No webhook endpoint has this id.')

/** One English message per bad field. */
function fieldsOf(error: z.ZodError): Record<string, string> {
  const out: Record<string, string> = Object.create(null)
  for (const issue of error.issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) out[key] ??= `${key} is not a field of this body`
      continue
    }
    const path = pathText(issue.path)
    if (path === '') out.body ??= 'the body must be a JSON object'
    else out[path] ??= `${path} ${issue.message}`
  }
  return out
}

function answer(c: Context<AppEnv>, result: EndpointResult, status: 200 | 201) {
  if (result.ok) {
    const object = toEndpointObject(result.endpoint)
    return c.json(status === 201 ? { ...object, secret: result.endpoint.secret } : object, status)
  }
  if (result.kind === 'not_found') return noSuchEndpoint(c)
  if (result.kind === 'limit')
    return apiError(c, 409, 'endpoint_limit', 'At most 20 webhook endpoints; delete one first.')
  return invalidFields(c, 'invalid_body', { url: TARGET_PROBLEM_TEXT[result.problem] })
}

webhookEndpointApiRoutes.get('/webhook-endpoints', async (c) => {
  const rows = await listEndpoints(c.get('db'))
  return c.json({ data: rows.map(toEndpointObject) })
})

webhookEndpointApiRoutes.post(
  '/webhook-endpoints',
  limitLinkWrites(),
  jsonBodyLimit(),
  async (c) => {
    const body = await readJsonBody(c)
    if (!body.ok) return body.response
    const parsed = createEndpointBody.safeParse(body.body)
    if (!parsed.success) return invalidFields(c, 'invalid_body', fieldsOf(parsed.error))
    const v = parsed.data
    const result = await registerEndpoint(c.var, {
      url: v.url,
      description: v.description ?? null,
      eventTypes: normalTypes(v.event_types ?? OUTBOUND_EVENT_TYPES),
      enabled: v.enabled ?? true,
    })
    if (result.ok)
      await auditEndpoint(c, 'webhook_endpoint_created', result.endpoint, {
        event_types: result.endpoint.eventTypes,
      })
    return answer(c, result, 201)
  },
)

webhookEndpointApiRoutes.get('/webhook-endpoints/:id', async (c) => {
  const endpoint = await getEndpoint(c.get('db'), c.req.param('id'))
  return endpoint ? c.json(toEndpointObject(endpoint)) : noSuchEndpoint(c)
})

webhookEndpointApiRoutes.patch(
  '/webhook-endpoints/:id',
  limitLinkWrites(),
  jsonBodyLimit(),
  async (c) => {
    const body = await readJsonBody(c)
    if (!body.ok) return body.response
    const parsed = updateEndpointBody.safeParse(body.body)
    if (!parsed.success) return invalidFields(c, 'invalid_body', fieldsOf(parsed.error))
    const v = parsed.data
    const result = await changeEndpoint(c.var, c.req.param('id'), {
      ...(v.url !== undefined ? { url: v.url } : {}),
      ...(v.description !== undefined ? { description: v.description } : {}),
      ...(v.event_types !== undefined ? { eventTypes: normalTypes(v.event_types) } : {}),
      ...(v.enabled !== undefined ? { enabled: v.enabled } : {}),
    })
    if (result.ok)
      await auditEndpoint(c, 'webhook_endpoint_updated', result.endpoint, {
        fields: Object.keys(v).sort(),
      })
    return answer(c, result, 200)
  },
)

webhookEndpointApiRoutes.delete('/webhook-endpoints/:id', limitLinkWrites(), async (c) => {
  const endpoint = await getEndpoint(c.get('db'), c.req.param('id'))
  if (!endpoint || !(await deleteEndpoint(c.get('db'), endpoint.id))) return noSuchEndpoint(c)
  await auditEndpoint(c, 'webhook_endpoint_deleted', endpoint)
  return c.body(null, 204)
})

webhookEndpointApiRoutes.post(
  '/webhook-endpoints/:id/rotate-secret',
  limitLinkWrites(),
  async (c) => {
    const rotated = await rotateSecret(c.get('db'), c.req.param('id'), c.get('clock')())
    if (!rotated) return noSuchEndpoint(c)
    await auditEndpoint(c, 'webhook_secret_rotated', rotated)
    return c.json({ ...toEndpointObject(rotated), secret: rotated.secret })
  },
)

webhookEndpointApiRoutes.get('/webhook-endpoints/:id/deliveries', async (c) => {
  const query = parseQuery(c, listDeliveriesQuery)
  if (!query.ok) return invalidFields(c, 'invalid_query', query.fields)
  const id = c.req.param('id')
  if (!(await getEndpoint(c.get('db'), id))) return noSuchEndpoint(c)
  const limit = query.value.limit ?? 50
  const rows = await listEndpointDeliveries(c.get('db'), id, limit + 1, query.value.cursor)
  const page = rows.slice(0, limit)
  const more = rows.length > limit
  return c.json({
    data: page.map(toDeliveryObject),
    has_more: more,
    next_cursor: more ? String(page.at(-1)!.id) : null,
  })
})

webhookEndpointApiRoutes.post(
  '/webhook-endpoints/:id/deliveries/:eventId/redeliver',
  limitLinkWrites(),
  async (c) => {
    const db = c.get('db')
    const delivery = await getEndpointDelivery(db, c.req.param('id'), c.req.param('eventId'))
    if (!delivery)
      return apiError(c, 404, 'not_found', 'This endpoint has no delivery with this id.')
    const again = await redeliver(db, delivery.id, c.get('clock')())
    c.get('outbound').kick(c.get('background'))
    const endpoint = await getEndpoint(db, c.req.param('id'))
    if (endpoint)
      await auditEndpoint(c, 'delivery_redelivered', endpoint, { event_id: delivery.eventId })
    return c.json(toDeliveryObject(again ?? delivery), 202)
  },
)
