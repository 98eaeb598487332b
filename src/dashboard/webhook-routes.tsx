/**
 * The webhook endpoints in the dashboard (/dashboard/webhooks): list, create, edit, turn on or off,
 * rotate the secret, delete; an endpoint's delivery log and sending a delivery again. Every change
 * goes through the functions the API uses (src/outbound-webhooks), so both obey the same rules.
 */
import { Hono } from 'hono'
import * as z from 'zod'
import type { WebhookEndpoint } from '../../db/schema.js'
import { DashMessagePage } from '../../views/dashboard/layout.js'
import { WebhookEndpointPage } from '../../views/dashboard/webhook-endpoint-page.js'
import { WebhookFormPage } from '../../views/dashboard/webhook-form-page.js'
import { WebhookListPage } from '../../views/dashboard/webhook-list-page.js'
import { formatDateTime } from '../i18n/index.js'
import { readForm } from '../lib/form-body.js'
import { auditEndpoint } from '../outbound-webhooks/audit.js'
import {
  deleteEndpoint,
  getEndpoint,
  listEndpoints,
  MAX_ENDPOINTS,
  rotateSecret,
} from '../outbound-webhooks/endpoints.js'
import {
  changeEndpoint,
  type EndpointResult,
  registerEndpoint,
} from '../outbound-webhooks/service.js'
import { getEndpointDelivery, listEndpointDeliveries, redeliver } from '../outbox/deliveries.js'
import { type DashC, type DashEnv, dashContext } from './context.js'
import type { FormProblems } from './link-form.js'
import { translateProblems } from './link-form-routes.js'
import type { DashKey } from './messages.js'
import { attemptsByDelivery, latestDeliveries } from './webhook-data.js'
import {
  type EndpointForm,
  endpointToForm,
  formToValues,
  newEndpointForm,
  readEndpointForm,
  TARGET_PROBLEM_KEYS,
} from './webhook-form.js'

const PAGE_SIZE = 25
const LIST = '/dashboard/webhooks'
const pathOf = (id: string) => `${LIST}/${encodeURIComponent(id)}`

// What a redirect after a change asks the next page to say (`?done=saved`).
const DONE: Record<string, DashKey> = {
  saved: 'whSaved',
  enabled: 'whEnabledDone',
  disabled: 'whDisabledDone',
  deleted: 'whDeleted',
  redelivered: 'whRedelivered',
}

function doneNotice(c: DashC): string | undefined {
  const key = DONE[c.req.query('done') ?? '']
  return key ? c.get('dt')(key) : undefined
}

/** The delivery log's page: `before` a delivery id (the pager's link). */
const logQuery = z.object({
  before: z
    .string()
    .regex(/^\d{1,15}$/)
    .transform(Number)
    .optional(),
})

/** A page answering a POST: its language switcher reopens `path` rather than the POST's address. */
function contextAt(c: DashC, path: string) {
  return { ...dashContext(c), switchPath: path }
}

function message(c: DashC, status: 400 | 404, text: DashKey, back = LIST) {
  const ctx = dashContext(c)
  return c.html(
    <DashMessagePage
      ctx={ctx}
      title={ctx.t(status === 404 ? 'notFoundTitle' : 'whTitle')}
      text={ctx.t(text, { field: 'before' })}
      action={{ href: back, label: ctx.t('whBack') }}
    />,
    status,
  )
}

const notFound = (c: DashC) => message(c, 404, 'whNotFound')

/** The endpoint's page with a page of its delivery log; `secret` only on creation and rotation. */
async function endpointPage(
  c: DashC,
  endpoint: WebhookEndpoint,
  extra: { status?: 200 | 201; secret?: { value: string; note?: string }; notice?: string } = {},
) {
  const query = logQuery.safeParse(c.req.query())
  if (!query.success) return message(c, 400, 'badFilter', pathOf(endpoint.id))
  const before = query.data.before
  const db = c.get('db')
  const rows = await listEndpointDeliveries(db, endpoint.id, PAGE_SIZE + 1, before)
  const page = rows.slice(0, PAGE_SIZE)
  const last = page.at(-1)
  const base = pathOf(endpoint.id)
  const notice = extra.notice ?? doneNotice(c)
  return c.html(
    <WebhookEndpointPage
      ctx={c.req.method === 'POST' ? contextAt(c, base) : dashContext(c)}
      endpoint={endpoint}
      secret={extra.secret}
      notice={notice ? { text: notice } : undefined}
      deliveries={page}
      attempts={
        await attemptsByDelivery(
          db,
          page.map((d) => d.id),
        )
      }
      nextHref={rows.length > PAGE_SIZE && last ? `${base}?before=${last.id}#deliveries` : null}
      firstHref={before === undefined ? null : `${base}#deliveries`}
    />,
    extra.status ?? 200,
  )
}

function renderForm(
  c: DashC,
  status: 200 | 400 | 409,
  state: {
    form: EndpointForm
    problems?: FormProblems
    endpoint?: WebhookEndpoint
    alert?: string
  },
) {
  const back = state.endpoint ? `${pathOf(state.endpoint.id)}/edit` : `${LIST}/new`
  const ctx = c.req.method === 'POST' ? contextAt(c, back) : dashContext(c)
  return c.html(
    <WebhookFormPage
      ctx={ctx}
      form={state.form}
      errors={translateProblems(state.problems ?? {}, ctx.t)}
      endpoint={state.endpoint}
      alert={state.alert}
    />,
    status,
  )
}

/** The form again with the service's refusal beside the address or above the form. */
function refused(
  c: DashC,
  result: Exclude<EndpointResult, { ok: true }>,
  form: EndpointForm,
  endpoint?: WebhookEndpoint,
) {
  if (result.kind === 'not_found') return notFound(c)
  if (result.kind === 'limit') {
    const alert = c.get('dt')('whErrLimit', { max: MAX_ENDPOINTS })
    return renderForm(c, 409, { form, alert, ...(endpoint ? { endpoint } : {}) })
  }
  const problems = { url: { key: TARGET_PROBLEM_KEYS[result.problem] } }
  return renderForm(c, 400, { form, problems, ...(endpoint ? { endpoint } : {}) })
}

export const webhookRoutes = new Hono<DashEnv>()

webhookRoutes.get('/webhooks', async (c) => {
  const db = c.get('db')
  const [endpoints, latest] = await Promise.all([listEndpoints(db), latestDeliveries(db)])
  return c.html(
    <WebhookListPage
      ctx={dashContext(c)}
      endpoints={endpoints}
      latest={latest}
      notice={doneNotice(c)}
    />,
  )
})

webhookRoutes.get('/webhooks/new', (c) => renderForm(c, 200, { form: newEndpointForm() }))

webhookRoutes.post('/webhooks', async (c) => {
  const form = readEndpointForm(await readForm(c))
  const mapped = formToValues(form)
  if (!mapped.ok) return renderForm(c, 400, { form, problems: mapped.problems })
  const result = await registerEndpoint(c.var, mapped.values)
  if (!result.ok) return refused(c, result, form)
  await auditEndpoint(c, 'webhook_endpoint_created', result.endpoint, {
    event_types: result.endpoint.eventTypes,
  })
  // The secret is in this answer only: no redirect, so it is never in an address or a later page.
  return endpointPage(c, result.endpoint, {
    status: 201,
    secret: { value: result.endpoint.secret },
    notice: c.get('dt')('whCreated'),
  })
})

webhookRoutes.get('/webhooks/:id', async (c) => {
  const endpoint = await getEndpoint(c.get('db'), c.req.param('id'))
  return endpoint ? endpointPage(c, endpoint) : notFound(c)
})

webhookRoutes.get('/webhooks/:id/edit', async (c) => {
  const endpoint = await getEndpoint(c.get('db'), c.req.param('id'))
  if (!endpoint) return notFound(c)
  return renderForm(c, 200, { form: endpointToForm(endpoint), endpoint })
})

webhookRoutes.post('/webhooks/:id', async (c) => {
  const endpoint = await getEndpoint(c.get('db'), c.req.param('id'))
  if (!endpoint) return notFound(c)
  const form = readEndpointForm(await readForm(c))
  const mapped = formToValues(form)
  if (!mapped.ok) return renderForm(c, 400, { form, problems: mapped.problems, endpoint })
  // An unchanged address is not checked again (its check may depend on DNS of the moment).
  const { url, ...rest } = mapped.values
  const changes = url === endpoint.url ? rest : mapped.values
  const result = await changeEndpoint(c.var, endpoint.id, changes)
  if (!result.ok) return refused(c, result, form, endpoint)
  await auditEndpoint(c, 'webhook_endpoint_updated', result.endpoint, {
    fields: Object.keys(changes).sort(),
  })
  return c.redirect(`${pathOf(endpoint.id)}?done=saved`, 303)
})

for (const [action, enabled] of [
  ['enable', true],
  ['disable', false],
] as const) {
  webhookRoutes.post(`/webhooks/:id/${action}`, async (c) => {
    const result = await changeEndpoint(c.var, c.req.param('id'), { enabled })
    if (!result.ok) return notFound(c)
    await auditEndpoint(c, 'webhook_endpoint_updated', result.endpoint, {
      fields: ['enabled'],
      enabled,
    })
    return c.redirect(`${pathOf(result.endpoint.id)}?done=${action}d`, 303)
  })
}

webhookRoutes.post('/webhooks/:id/rotate', async (c) => {
  const rotated = await rotateSecret(c.get('db'), c.req.param('id'), c.get('clock')())
  if (!rotated) return notFound(c)
  await auditEndpoint(c, 'webhook_secret_rotated', rotated)
  const t = c.get('dt')
  const until = formatDateTime(rotated.previousSecretExpiresAt ?? 0, c.get('dashLang'))
  return endpointPage(c, rotated, {
    secret: { value: rotated.secret, note: t('whRotated', { time: until }) },
  })
})

webhookRoutes.post('/webhooks/:id/delete', async (c) => {
  const endpoint = await getEndpoint(c.get('db'), c.req.param('id'))
  if (!endpoint || !(await deleteEndpoint(c.get('db'), endpoint.id))) return notFound(c)
  await auditEndpoint(c, 'webhook_endpoint_deleted', endpoint)
  return c.redirect(`${LIST}?done=deleted`, 303)
})

webhookRoutes.post('/webhooks/:id/deliveries/:eventId/redeliver', async (c) => {
  const db = c.get('db')
  const id = c.req.param('id')
  const delivery = await getEndpointDelivery(db, id, c.req.param('eventId'))
  if (!delivery) return message(c, 404, 'whDeliveryNotFound', pathOf(id))
  await redeliver(db, delivery.id, c.get('clock')())
  c.get('outbound').kick(c.get('background'))
  const endpoint = await getEndpoint(db, id)
  if (endpoint)
    await auditEndpoint(c, 'delivery_redelivered', endpoint, { event_id: delivery.eventId })
  return c.redirect(`${pathOf(id)}?done=redelivered#${delivery.eventId}`, 303)
})
