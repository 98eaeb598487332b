/**
 * The dashboard's webhook endpoint form: what the browser posts (text and checkboxes), how an
 * endpoint fills it, and how it maps onto the API's body, parsed by the API's own zod schema, so
 * an endpoint made here obeys exactly the API's rules. Problems are message keys, translated when
 * the page is rendered.
 */
import type * as z from 'zod'
import {
  OUTBOUND_EVENT_TYPES,
  type OutboundEventType,
  type WebhookEndpoint,
} from '../../db/schema.js'
import { createEndpointBody } from '../api/webhook-endpoints/schemas.js'
import type { EndpointValues } from '../outbound-webhooks/endpoints.js'
import { normalTypes } from '../outbound-webhooks/service.js'
import type { TargetProblem } from '../outbound-webhooks/target-check.js'
import type { FieldProblem, FormProblems } from './link-form.js'
import type { DashKey } from './messages.js'

/** The form as posted. */
export interface EndpointForm {
  url: string
  description: string
  eventTypes: string[]
  enabled: boolean
}

/** What each event announces, beside its name in the form (typed by every event type). */
export const EVENT_TYPE_LABELS: Record<OutboundEventType, DashKey> = {
  'payment.paid': 'whEvt_payment_paid',
  'payment.failed': 'whEvt_payment_failed',
  'payment.canceled': 'whEvt_payment_canceled',
  'payment.expired': 'whEvt_payment_expired',
  'link.completed': 'whEvt_link_completed',
  'checkout.completed': 'whEvt_checkout_completed',
  'checkout.expired': 'whEvt_checkout_expired',
}

// Far above the fields' own limits (2000 and 200): long enough for the rules to name the limit.
const ECHO_LIMIT = 5_000

/** A blank form: every event, sending on. */
export function newEndpointForm(): EndpointForm {
  return { url: '', description: '', eventTypes: [...OUTBOUND_EVENT_TYPES], enabled: true }
}

/** The form filled from a stored endpoint. */
export function endpointToForm(e: WebhookEndpoint): EndpointForm {
  return {
    url: e.url,
    description: e.description ?? '',
    eventTypes: [...e.eventTypes],
    enabled: e.enabled,
  }
}

/** Reads the posted fields; the checkboxes are `event_types[]` (a list), anything else is text. */
export function readEndpointForm(form: Record<string, unknown>): EndpointForm {
  const text = (v: unknown) => (typeof v === 'string' ? v.slice(0, ECHO_LIMIT) : '')
  const raw = form['event_types[]']
  const list = Array.isArray(raw) ? raw : raw === undefined ? [] : [raw]
  return {
    url: text(form.url),
    description: text(form.description),
    // Bounded: the schema refuses more than twice the known types anyway.
    eventTypes: list.slice(0, 20).map(text),
    enabled: form.enabled !== undefined && form.enabled !== '',
  }
}

const FIELD_OF: Record<string, keyof EndpointForm> = {
  url: 'url',
  description: 'description',
  event_types: 'eventTypes',
  enabled: 'enabled',
}

function problemOf(field: keyof EndpointForm, issue: z.core.$ZodIssue): FieldProblem {
  if (field === 'eventTypes')
    return { key: issue.code === 'too_small' ? 'whErrEvents' : 'errInvalid' }
  if (issue.code === 'too_small') return { key: 'errRequired' }
  if (issue.code === 'too_big')
    return { key: 'errMaxChars', params: { max: Number(issue.maximum) } }
  if (issue.code === 'custom') return { key: 'errText' }
  return { key: 'errInvalid' }
}

export type MappedForm =
  | { ok: true; values: EndpointValues }
  | { ok: false; problems: FormProblems }

/** Parses the form with the API's body schema: the endpoint's values, or a problem per field. */
export function formToValues(form: EndpointForm): MappedForm {
  const parsed = createEndpointBody.safeParse({
    url: form.url,
    description: form.description.trim() === '' ? null : form.description,
    event_types: form.eventTypes,
    enabled: form.enabled,
  })
  if (parsed.success) {
    const v = parsed.data
    return {
      ok: true,
      values: {
        url: v.url,
        description: v.description ?? null,
        eventTypes: normalTypes((v.event_types ?? []) as OutboundEventType[]),
        enabled: v.enabled ?? true,
      },
    }
  }
  const problems: FormProblems = {}
  for (const issue of parsed.error.issues) {
    const field = FIELD_OF[String(issue.path[0] ?? '')] ?? 'url'
    problems[field] ??= problemOf(field, issue)
  }
  return { ok: false, problems }
}

/** The message beside the address for each reason the target check refuses it. */
export const TARGET_PROBLEM_KEYS: Record<TargetProblem, DashKey> = {
  invalid_url: 'whErrInvalidUrl',
  https_required: 'whErrHttps',
  private_address: 'whErrPrivate',
  unresolvable: 'whErrUnresolvable',
}
