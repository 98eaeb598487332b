/**
 * One-time invitations to the dashboard: the link carries a random token, the table keeps its
 * SHA-256 (a copy of the database accepts no invite). Accepting is one conditional statement.
 */
import { and, asc, eq, gt, isNull } from 'drizzle-orm'
import { type Invite, invites, type Role } from '../../db/schema.js'
import { randomBase62 } from '../lib/bytes.js'
import { sha256Hex } from '../lib/hash.js'
import type { Db } from './db.js'
import { normaliseEmail } from './users.js'

/** How long an invitation link works. */
export const INVITE_TTL_MS = 7 * 86_400_000

const TOKEN = /^[0-9A-Za-z]{32}$/

/** A new invitation; the token (for the link) is returned once and kept only as a hash. */
export async function createInvite(
  db: Db,
  input: { email: string; role: Role; invitedBy: string | null },
  now: number,
): Promise<{ invite: Invite; token: string }> {
  const token = randomBase62(32)
  const [invite] = await db
    .insert(invites)
    .values({
      id: `inv_${randomBase62(16)}`,
      tokenHash: await sha256Hex(token),
      email: normaliseEmail(input.email),
      role: input.role,
      invitedBy: input.invitedBy,
      createdAt: now,
      expiresAt: now + INVITE_TTL_MS,
    })
    .returning()
  return { invite: invite!, token }
}

const open = (now: number) =>
  and(isNull(invites.acceptedAt), isNull(invites.revokedAt), gt(invites.expiresAt, now))

/** The open invitation a link's token names, or null (unknown, used, revoked, expired). */
export async function findOpenInvite(db: Db, token: string, now: number): Promise<Invite | null> {
  if (!TOKEN.test(token)) return null
  const [row] = await db
    .select()
    .from(invites)
    .where(and(eq(invites.tokenHash, await sha256Hex(token)), open(now)))
  return row ?? null
}

/** Invitations not yet accepted, revoked or expired, oldest first. */
export function listOpenInvites(db: Db, now: number): Promise<Invite[]> {
  return db.select().from(invites).where(open(now)).orderBy(asc(invites.createdAt))
}

/** Revokes an open invitation; false when there is none by that id. */
export async function revokeInvite(db: Db, id: string, now: number): Promise<boolean> {
  const rows = await db
    .update(invites)
    .set({ revokedAt: now })
    .where(and(eq(invites.id, id), open(now)))
    .returning({ id: invites.id })
  return rows.length === 1
}

/** Marks an open invitation used; false when it was used, revoked or expired meanwhile. */
export async function markInviteAccepted(db: Db, id: string, now: number): Promise<boolean> {
  const rows = await db
    .update(invites)
    .set({ acceptedAt: now })
    .where(and(eq(invites.id, id), open(now)))
    .returning({ id: invites.id })
  return rows.length === 1
}
