/**
 * The audit log API's query, as a zod schema: the handler parses with it, the OpenAPI document is
 * generated from it.
 */
import * as z from 'zod'
import { algiersDayStart } from '../../domain/algiers-time.js'
import { AUDIT_GROUPS } from '../../domain/audit-actions.js'

const day = z
  .string({ error: 'must be given once' })
  .refine((v) => algiersDayStart(v) !== null, { error: 'must be a date, YYYY-MM-DD' })

export const listAuditQuery = z.strictObject({
  group: z
    .enum(AUDIT_GROUPS, { error: `must be one of ${AUDIT_GROUPS.join(', ')}` })
    .optional()
    .describe('Only acts of this kind.'),
  actor: z
    .string({ error: 'must be given once' })
    .regex(/^(?:admin|[A-Za-z0-9_]{1,64})$/, { error: 'must be admin or an id' })
    .optional()
    .describe("Only this actor's acts: `admin` (the admin token), a person's id or a key's id."),
  from: day.optional().describe('From this day (Algiers time), inclusive.'),
  to: day.optional().describe('To this day (Algiers time), inclusive.'),
  limit: z
    .preprocess(
      (v) => (typeof v === 'string' && /^\d{1,4}$/.test(v) ? Number(v) : v),
      z.number({ error: 'must be a whole number from 1 to 200' }).int().min(1).max(200, {
        error: 'must be a whole number from 1 to 200',
      }),
    )
    .optional(),
  cursor: z
    .string({ error: 'must be given once' })
    .regex(/^\d{1,15}~\d{1,15}$/, { error: 'is not a cursor this API gave' })
    .optional(),
})
