/**
 * Making API keys and recognising them. The key is shown once, at creation; the database keeps
 * its SHA-256 only, found through a unique index (the hash of a random 238-bit key leaks nothing
 * a timing could use).
 */
import type { ApiKeyScope } from '../../db/schema.js'
import {
  type ApiKeyRow,
  findUsableKey,
  getApiKey,
  insertApiKey,
  touchApiKey,
} from '../data/api-keys.js'
import type { AppDeps } from '../deps.js'
import { newApiKeyId } from '../domain/ids.js'
import { apiKeyPrefix, looksLikeApiKey, newApiKeyText } from '../security/api-key-text.js'
import type { Principal } from './principal.js'

type Deps = Pick<AppDeps, 'db' | 'config' | 'clock' | 'sha256Hex'>

/** Creates a key; answers the stored row and the key's text, which nothing keeps. */
export async function createApiKey(
  deps: Deps,
  input: { name: string; scope: ApiKeyScope; userId: string | null; createdBy: string | null },
): Promise<{ key: ApiKeyRow; text: string }> {
  const text = newApiKeyText(deps.config.gatewayMode)
  const row = await insertApiKey(
    deps.db,
    {
      id: newApiKeyId(),
      name: input.name,
      prefix: apiKeyPrefix(text),
      keyHash: await deps.sha256Hex(text),
      scope: input.scope,
      userId: input.userId,
      createdBy: input.createdBy,
    },
    deps.clock(),
  )
  const key = (await getApiKey(deps.db, row.id)) ?? { ...row, userEmail: null }
  return { key, text }
}

/**
 * The principal of a presented key, or null when it is no usable key (unknown, revoked, or its
 * person disabled or removed). Notes the use, at most once a minute per key.
 */
export async function principalOfKey(deps: Deps, token: string): Promise<Principal | null> {
  if (!looksLikeApiKey(token)) return null
  const key = await findUsableKey(deps.db, await deps.sha256Hex(token))
  if (!key) return null
  await touchApiKey(deps.db, key, deps.clock())
  return {
    kind: 'key',
    keyId: key.id,
    name: key.name,
    scope: key.scope,
    userId: key.userId,
    role: key.role,
  }
}

/** What the audit log keeps of a key: its name, prefix, scope and person, never the key. */
export function keyDetail(key: {
  name: string
  prefix: string
  scope: string
  userId: string | null
}): Record<string, unknown> {
  return { name: key.name, prefix: key.prefix, scope: key.scope, user_id: key.userId }
}
