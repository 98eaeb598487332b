/**
 * The zod schemas of the audit log API's answers. The OpenAPI document is made from them; the
 * handler builds the answers with objects.ts, which does not parse them. Nothing the Worker runs
 * imports a value from here, so its upload does not carry them.
 */
import * as z from 'zod'
import { ALL_AUDIT_ACTIONS, AUDIT_GROUPS } from '../../domain/audit-actions.js'

const time = z.string().describe('ISO 8601, UTC')

export const auditEntryObject = z.object({
  id: z.number().int(),
  at: time,
  actor: z.object({
    kind: z
      .string()
      .describe('admin (the admin token), user, key, system or anonymous (a failed login)'),
    id: z.string().nullable(),
    label: z.string().nullable().describe("an e-mail or a key's name, as it was then"),
  }),
  action: z.enum(ALL_AUDIT_ACTIONS as [string, ...string[]]),
  group: z.enum(AUDIT_GROUPS).nullable(),
  target: z.object({ kind: z.string(), id: z.string() }).nullable(),
  detail: z
    .record(z.string(), z.unknown())
    .nullable()
    .describe('ids and names; never a secret or a customer’s data'),
  address: z.string().nullable().describe("the client's address"),
})
export const auditList = z.object({
  data: z.array(auditEntryObject),
  has_more: z.boolean(),
  next_cursor: z.string().nullable(),
})
