/**
 * The API key object of the merchant API: the mapping from a key row. Its zod schemas, from which
 * the OpenAPI document is made, are in object-schemas.ts (re-exported here).
 */
import type * as z from 'zod'
import type { ApiKeyRow } from '../../data/api-keys.js'
import type { apiKeyObject } from './object-schemas.js'

export { apiKeyList, apiKeyObject, apiKeyWithSecret } from './object-schemas.js'

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString())

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
