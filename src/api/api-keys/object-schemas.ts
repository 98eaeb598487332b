/**
 * The zod schemas of the API key API's answers. The OpenAPI document is made from them; the
 * handlers build the answers with objects.ts, which does not parse them. Nothing the Worker runs
 * imports a value from here, so its upload does not carry them.
 */
import * as z from 'zod'
import { API_KEY_SCOPES } from '../../../db/schema.js'

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
