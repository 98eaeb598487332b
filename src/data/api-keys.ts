/**
 * API keys: stored by the SHA-256 of the whole key (a unique index finds one), with the person
 * it acts for when it is not the store's. Nothing is cached: a revoke, or the person's removal,
 * takes effect on the very next request.
 */
import { and, desc, eq, isNull, lte, or, sql } from 'drizzle-orm'
import { type ApiKey, type ApiKeyScope, apiKeys, type Role, users } from '../../db/schema.js'
import type { Db } from './db.js'

/** How often `last_used_at` is written at most: a busy key does not write on every request. */
export const LAST_USED_EVERY_MS = 60_000

/** A key with the e-mail of its person (null: the store's key, or its person is gone). */
export type ApiKeyRow = ApiKey & { userEmail: string | null }

/** Stores a new key. */
export async function insertApiKey(
  db: Db,
  values: {
    id: string
    name: string
    prefix: string
    keyHash: string
    scope: ApiKeyScope
    userId: string | null
    createdBy: string | null
  },
  now: number,
): Promise<ApiKey> {
  const [row] = await db
    .insert(apiKeys)
    .values({ ...values, createdAt: now })
    .returning()
  return row!
}

/** Every key, newest first, revoked ones too (the list shows when they were revoked). */
export async function listApiKeys(db: Db): Promise<ApiKeyRow[]> {
  const rows = await db
    .select({ key: apiKeys, userEmail: users.email })
    .from(apiKeys)
    .leftJoin(users, eq(users.id, apiKeys.userId))
    .orderBy(desc(apiKeys.createdAt), desc(apiKeys.id))
  return rows.map((r) => ({ ...r.key, userEmail: r.userEmail }))
}

/** One key by id. */
export async function getApiKey(db: Db, id: string): Promise<ApiKeyRow | undefined> {
  const [row] = await db
    .select({ key: apiKeys, userEmail: users.email })
    .from(apiKeys)
    .leftJoin(users, eq(users.id, apiKeys.userId))
    .where(eq(apiKeys.id, id))
  return row ? { ...row.key, userEmail: row.userEmail } : undefined
}

/**
 * Revokes a key; answers the key and whether this call revoked it (false: it already was).
 * One conditional statement, so two revokes at once record one.
 */
export async function revokeApiKey(
  db: Db,
  id: string,
  now: number,
): Promise<{ key: ApiKeyRow; revokedNow: boolean } | undefined> {
  const changed = await db
    .update(apiKeys)
    .set({ revokedAt: now })
    .where(and(eq(apiKeys.id, id), isNull(apiKeys.revokedAt)))
    .returning({ id: apiKeys.id })
  const key = await getApiKey(db, id)
  return key ? { key, revokedNow: changed.length > 0 } : undefined
}

/**
 * Revokes what a removed person leaves behind: their own keys, the store keys they made, and
 * the keys made with any of those, and so on (a key can make keys through the API). A store key
 * ends with its maker: they saw its text once, and removing them must take all of their access.
 * One statement; answers the keys it revoked.
 */
export async function revokeKeysOfPerson(
  db: Db,
  userId: string,
  now: number,
): Promise<Pick<ApiKey, 'id' | 'name' | 'prefix' | 'scope' | 'userId'>[]> {
  return db
    .update(apiKeys)
    .set({ revokedAt: now })
    .where(
      and(
        isNull(apiKeys.revokedAt),
        sql`${apiKeys.id} IN (WITH RECURSIVE made(id) AS (SELECT id FROM api_keys WHERE created_by = ${userId} OR user_id = ${userId} UNION SELECT k.id FROM api_keys AS k JOIN made ON k.created_by = made.id) SELECT id FROM made)`,
      ),
    )
    .returning({
      id: apiKeys.id,
      name: apiKeys.name,
      prefix: apiKeys.prefix,
      scope: apiKeys.scope,
      userId: apiKeys.userId,
    })
}

/** A key that may act now, with the role it acts with. */
export type UsableKey = {
  id: string
  name: string
  scope: ApiKeyScope
  userId: string | null
  role: Role
  lastUsedAt: number | null
}

/**
 * The key whose hash is `keyHash` when it may act: not revoked, and its person (if any) still
 * there and not disabled. A store key acts with the owner's role, a person's key with theirs.
 */
export async function findUsableKey(db: Db, keyHash: string): Promise<UsableKey | null> {
  const [row] = await db
    .select({
      id: apiKeys.id,
      name: apiKeys.name,
      scope: apiKeys.scope,
      userId: apiKeys.userId,
      revokedAt: apiKeys.revokedAt,
      lastUsedAt: apiKeys.lastUsedAt,
      personId: users.id,
      personRole: users.role,
      personDisabledAt: users.disabledAt,
    })
    .from(apiKeys)
    .leftJoin(users, eq(users.id, apiKeys.userId))
    .where(eq(apiKeys.keyHash, keyHash))
  if (!row || row.revokedAt !== null) return null
  let role: Role = 'owner'
  if (row.userId !== null) {
    if (row.personId === null || row.personDisabledAt !== null || row.personRole === null)
      return null
    role = row.personRole
  }
  return {
    id: row.id,
    name: row.name,
    scope: row.scope,
    userId: row.userId,
    role,
    lastUsedAt: row.lastUsedAt,
  }
}

/** Notes that a key was used at `now`, unless that was noted less than a minute ago. */
export async function touchApiKey(db: Db, key: UsableKey, now: number): Promise<void> {
  if (key.lastUsedAt !== null && now - key.lastUsedAt < LAST_USED_EVERY_MS) return
  await db
    .update(apiKeys)
    .set({ lastUsedAt: now })
    .where(
      and(
        eq(apiKeys.id, key.id),
        or(isNull(apiKeys.lastUsedAt), lte(apiKeys.lastUsedAt, now - LAST_USED_EVERY_MS)),
      ),
    )
}
