/**
 * The zod schemas of the API key and audit log API's answers: keys and audit entries. The OpenAPI
 * document is made from them; the handlers build the answers with schemas.ts, which does
 * not parse them. Nothing the Worker runs imports a value from here, so its upload does not carry
 * them.
 */
import * as z from 'zod'
import { API_KEY_SCOPES } from '../../../db/schema.js'
import { ALL_AUDIT_ACTIONS, AUDIT_GROUPS } from '../../domain/audit-actions.js'

const time = z.string().describe('ISO 8601, UTC')

export const apiKeyObject = z.object({
  id: z.string(),
  name: z.string(),
  prefix: z.string().describe('the start of the key, to tell keys apart'),
  scope: z.enum(API_KEY_SCOPES),
  user_id: z.string().nullable().describe("the person it acts for; null: the store's key"),
  created_by: z.string().nullable().describe('who created it (null: the admin token)'),
  created_at: time,
  last_used_at: time.nullable().describe('to the minute'),
  revoked_at: time.nullable(),
})
export const apiKeyWithSecret = apiKeyObject.extend({
  key: z.string().describe('pl_live_… or pl_test_…: shown only in the answer that creates it'),
})
export const apiKeyList = z.object({ data: z.array(apiKeyObject) })

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
