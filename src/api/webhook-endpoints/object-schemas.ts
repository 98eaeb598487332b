/**
 * The zod schemas of the webhook endpoint API's answers: endpoints and deliveries. The OpenAPI
 * document is made from them; the handlers build the answers with objects.ts,
 * which does not parse them. Nothing the Worker runs imports a value from here, so its upload does
 * not carry them.
 */
import * as z from 'zod'
import { DELIVERY_STATES, OUTBOUND_EVENT_TYPES } from '../../../db/schema.js'

const time = z.string().describe('ISO 8601, UTC')

export const webhookEndpointObject = z.object({
  id: z.string(),
  url: z.string(),
  description: z.string().nullable(),
  event_types: z.array(z.enum(OUTBOUND_EVENT_TYPES)),
  enabled: z.boolean(),
  failing: z.boolean().describe('five or more failed attempts in a row; a delivered one clears it'),
  failing_since: time.nullable(),
  consecutive_failures: z.number().int(),
  previous_secret_expires_at: time
    .nullable()
    .describe('after a rotation, until when the previous secret still signs'),
  created_at: time,
  updated_at: time,
})
export const webhookEndpointWithSecret = webhookEndpointObject.extend({
  secret: z.string().describe('whsec_…: shown only in the answers that create or rotate it'),
})
export const webhookEndpointList = z.object({ data: z.array(webhookEndpointObject) })

export const deliveryObject = z.object({
  id: z.string().describe('the event id, sent as webhook-id on every attempt'),
  type: z.enum(OUTBOUND_EVENT_TYPES),
  payment_id: z.string().nullable(),
  link_id: z.string(),
  state: z.enum(DELIVERY_STATES),
  attempts: z.number().int(),
  next_attempt_at: time.nullable().describe('pending deliveries only'),
  last_attempt_at: time.nullable(),
  last_status: z.number().int().nullable(),
  last_response: z.string().nullable().describe('the first kilobyte of the last answer'),
  last_duration_ms: z.number().int().nullable(),
  last_error: z.string().nullable(),
  delivered_at: time.nullable(),
  created_at: time,
})
export const deliveryList = z.object({
  data: z.array(deliveryObject),
  has_more: z.boolean(),
  next_cursor: z.string().nullable(),
})
