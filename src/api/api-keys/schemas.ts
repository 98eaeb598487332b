/**
 * The API key and audit log API's bodies and queries, as zod schemas (the handlers parse with
 * them, the OpenAPI document is generated from them), and the mapping from rows to the answers'
 * objects, whose schemas are in object-schemas.ts (re-exported here).
 */
import * as z from 'zod'
import { API_KEY_SCOPES, type AuditEntry } from '../../../db/schema.js'
import type { ApiKeyRow } from '../../data/api-keys.js'
import { algiersDayStart } from '../../domain/algiers-time.js'
import { AUDIT_GROUPS, auditGroupOf } from '../../domain/audit-actions.js'
import { CLEAN_TEXT_RULE, isCleanText } from '../../domain/clean-text.js'
import type { apiKeyObject, auditEntryObject } from './object-schemas.js'

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString())

export const createApiKeyBody = z.strictObject({
  name: z
    .string({ error: 'must be text' })
    .trim()
    .min(1, { error: 'is required' })
    .max(80, { error: 'must be at most 80 characters' })
    .refine((v) => isCleanText(v), { error: CLEAN_TEXT_RULE })
    .describe('What the key is for: "Shop site", "Accounting export".'),
  scope: z
    .enum(API_KEY_SCOPES, { error: `must be one of ${API_KEY_SCOPES.join(', ')}` })
    .describe('`read`: only reads (lists, details); `write`: everything its role allows.'),
  owner: z
    .enum(['store', 'me'], { error: 'must be store or me' })
    .optional()
    .describe(
      "`store` (default): acts with the owner's role; `me`: acts for the person behind this request, with their role, and stops when they are disabled or removed.",
    ),
})

export {
  apiKeyList,
  apiKeyObject,
  apiKeyWithSecret,
  auditEntryObject,
  auditList,
} from './object-schemas.js'

/** A key row as the API shows it (never its hash). */
export function toApiKeyObject(k: ApiKeyRow): z.infer<typeof apiKeyObject> {
  return {
    id: k.id,
    name: k.name,
    prefix: k.prefix,
    scope: k.scope,
    user_id: k.userId,
    created_by: k.createdBy,
    created_at: iso(k.createdAt)!,
    last_used_at: iso(k.lastUsedAt),
    revoked_at: iso(k.revokedAt),
  }
}

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

/** An audit row as the API shows it. */
export function toAuditObject(e: AuditEntry): z.infer<typeof auditEntryObject> {
  return {
    id: e.id,
    at: iso(e.at)!,
    actor: { kind: e.actorKind, id: e.actorId, label: e.actorLabel },
    action: e.action,
    group: auditGroupOf(e.action) ?? null,
    target: e.targetKind && e.targetId ? { kind: e.targetKind, id: e.targetId } : null,
    detail: e.detail,
    address: e.address,
  }
}
