/**
 * The webhook endpoint API's bodies and query, as zod schemas (the handlers parse with them, the
 * OpenAPI document is generated from them), and the words of a refused URL. The answers' objects
 * are mapped in objects.ts, their schemas in object-schemas.ts.
 */
import * as z from 'zod'
import { OUTBOUND_EVENT_TYPES } from '../../../db/schema.js'
import { CLEAN_TEXT_RULE, isCleanText } from '../../domain/clean-text.js'
import type { TargetProblem } from '../../outbound-webhooks/target-check.js'

const url = z
  .string({ error: 'must be a URL' })
  .trim()
  .min(1, { error: 'is required' })
  .max(2000, { error: 'must be at most 2000 characters' })
  .describe('Where events are POSTed: https outside simulator mode, never a private address.')
const description = z
  .string({ error: 'must be text or null' })
  .trim()
  .max(200, { error: 'must be at most 200 characters' })
  .refine((v) => isCleanText(v), { error: CLEAN_TEXT_RULE })
  .nullable()
  .optional()
const eventTypes = z
  .array(
    z.enum(OUTBOUND_EVENT_TYPES, {
      error: `must each be one of ${OUTBOUND_EVENT_TYPES.join(', ')}`,
    }),
    {
      error: 'must be a list of event types',
    },
  )
  .min(1, { error: 'must name at least one event type' })
  .max(OUTBOUND_EVENT_TYPES.length * 2, { error: 'has too many entries' })
const enabled = z.boolean({ error: 'must be true or false' }).optional()

export const createEndpointBody = z.strictObject({
  url,
  description,
  event_types: eventTypes.describe('Default: every event type.').optional(),
  enabled,
})
export const updateEndpointBody = z.strictObject({
  url: url.optional(),
  description,
  event_types: eventTypes.optional(),
  enabled,
})

export const listDeliveriesQuery = z.strictObject({
  limit: z
    .preprocess(
      (v) => (typeof v === 'string' && /^\d{1,4}$/.test(v) ? Number(v) : v),
      z.number({ error: 'must be a whole number from 1 to 100' }).int().min(1).max(100, {
        error: 'must be a whole number from 1 to 100',
      }),
    )
    .optional(),
  cursor: z
    .string({ error: 'must be given once' })
    .regex(/^\d{1,15}$/, { error: 'is not a cursor this API gave' })
    .transform(Number)
    .optional(),
})

/** Why a URL was refused, in English. */
export const TARGET_PROBLEM_TEXT: Record<TargetProblem, string> = {
  invalid_url: 'url must be an http(s) URL without user name or password',
  https_required: 'url must start with https:// (outside simulator mode)',
  private_address:
    'url points at a private, loopback or link-local address; set WEBHOOK_ALLOW_PRIVATE_TARGETS=true to allow it',
  unresolvable: 'url names a host that does not resolve',
}
