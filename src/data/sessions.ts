/**
 * Dashboard sessions kept in the database by the SHA-256 of their token, so one can be ended
 * from anywhere ("log out everywhere", a removed person, a new admin token).
 */
import { and, eq, gt, isNull, lte } from 'drizzle-orm'
import { type Role, sessions, users } from '../../db/schema.js'
import { randomBase62 } from '../lib/bytes.js'
import { sha256Hex } from '../lib/hash.js'
import type { Db } from './db.js'

/** Who a live session belongs to. */
export type SessionOwner =
  | { kind: 'admin'; adminKey: string }
  | { kind: 'user'; userId: string; email: string; name: string; role: Role }

/** Opens a session for `owner` until `now + ttlMs`; returns the token for the cookie. */
export async function createSession(
  db: Db,
  owner: { userId: string } | { adminKey: string },
  now: number,
  ttlMs: number,
): Promise<string> {
  const token = randomBase62(32)
  await db.insert(sessions).values({
    idHash: await sha256Hex(token),
    userId: 'userId' in owner ? owner.userId : null,
    adminKey: 'adminKey' in owner ? owner.adminKey : null,
    createdAt: now,
    expiresAt: now + ttlMs,
  })
  return token
}

/** The owner of the live session `token` opens, or null (unknown, expired, person disabled). */
export async function findSession(
  db: Db,
  token: string,
  now: number,
): Promise<SessionOwner | null> {
  if (!/^[0-9A-Za-z]{32}$/.test(token)) return null
  const [row] = await db
    .select({
      userId: sessions.userId,
      adminKey: sessions.adminKey,
      email: users.email,
      name: users.name,
      role: users.role,
      disabledAt: users.disabledAt,
    })
    .from(sessions)
    .leftJoin(users, eq(users.id, sessions.userId))
    .where(and(eq(sessions.idHash, await sha256Hex(token)), gt(sessions.expiresAt, now)))
  if (!row) return null
  if (row.userId === null) return row.adminKey ? { kind: 'admin', adminKey: row.adminKey } : null
  if (row.email === null || row.name === null || row.role === null || row.disabledAt !== null)
    return null
  return { kind: 'user', userId: row.userId, email: row.email, name: row.name, role: row.role }
}

/** Ends one session. */
export async function deleteSession(db: Db, token: string): Promise<void> {
  await db.delete(sessions).where(eq(sessions.idHash, await sha256Hex(token)))
}

/** Ends every session of one person; returns how many were open. */
export async function deleteUserSessions(db: Db, userId: string): Promise<number> {
  const gone = await db.delete(sessions).where(eq(sessions.userId, userId)).returning()
  return gone.length
}

/** Ends every session of the store: every person's and the admin token's. */
export async function deleteAllSessions(db: Db): Promise<void> {
  await db.delete(sessions)
}

/** Ends every session opened with the admin token. */
export async function deleteAdminSessions(db: Db): Promise<void> {
  await db.delete(sessions).where(isNull(sessions.userId))
}

/** Housekeeping: forgets expired sessions. */
export async function purgeExpiredSessions(db: Db, now: number): Promise<void> {
  await db.delete(sessions).where(lte(sessions.expiresAt, now))
}
