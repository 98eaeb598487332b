/**
 * The people who sign in to the dashboard: read, create, and each change one conditional
 * statement (src/security for hashing, TOTP and recovery codes; the routes decide who may).
 */
import { and, asc, eq, isNotNull, isNull, lt, or, type SQL, sql } from 'drizzle-orm'
import { type Role, type User, users } from '../../db/schema.js'
import { randomBase62 } from '../lib/bytes.js'
import type { Db } from './db.js'

/** An e-mail as stored and compared: trimmed, lower-case. */
export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase()
}

/** The person with this e-mail (any case), or null. */
export async function findUserByEmail(db: Db, email: string): Promise<User | null> {
  const [row] = await db
    .select()
    .from(users)
    .where(eq(users.email, normaliseEmail(email)))
  return row ?? null
}

/** The person with this id, or null. */
export async function getUser(db: Db, id: string): Promise<User | null> {
  const [row] = await db.select().from(users).where(eq(users.id, id))
  return row ?? null
}

/** Everyone, oldest first. */
export function listUsers(db: Db): Promise<User[]> {
  return db.select().from(users).orderBy(asc(users.createdAt))
}

/** Adds a person; null when the e-mail is taken. */
export async function createUser(
  db: Db,
  input: { email: string; name: string; role: Role; passwordHash: string },
  now: number,
): Promise<User | null> {
  const [row] = await db
    .insert(users)
    .values({
      id: `usr_${randomBase62(16)}`,
      email: normaliseEmail(input.email),
      name: input.name,
      role: input.role,
      passwordHash: input.passwordHash,
      createdAt: now,
      updatedAt: now,
    })
    .onConflictDoNothing()
    .returning()
  return row ?? null
}

/** Replaces the stored password hash (a change, or a rehash at a higher cost). */
export async function setPasswordHash(db: Db, id: string, hash: string, now: number) {
  await db.update(users).set({ passwordHash: hash, updatedAt: now }).where(eq(users.id, id))
}

/** Notes a successful sign-in. */
export async function recordLogin(db: Db, id: string, now: number) {
  await db.update(users).set({ lastLoginAt: now }).where(eq(users.id, id))
}

/**
 * The secret waiting for its first code, or `fresh` stored as that secret when none waits; null
 * when two-factor is on already (or the person is gone). One statement, so two pages loaded at
 * once show the same key: a person who scanned one, then reloaded, is not told "code wrong".
 */
export async function pendingTotpSecret(
  db: Db,
  id: string,
  fresh: string,
  now: number,
): Promise<string | null> {
  const [row] = await db
    .update(users)
    .set({ totpSecret: sql`coalesce(${users.totpSecret}, ${fresh})`, updatedAt: now })
    .where(and(eq(users.id, id), isNull(users.totpEnabledAt)))
    .returning({ secret: users.totpSecret })
  return row?.secret ?? null
}

/** Turns two-factor on with the pending secret, the step just used and the recovery codes' hashes. */
export async function enableTotp(
  db: Db,
  id: string,
  input: { secret: string; step: number; recoveryHashes: string[] },
  now: number,
): Promise<boolean> {
  const rows = await db
    .update(users)
    .set({
      totpEnabledAt: now,
      totpLastStep: input.step,
      recoveryCodes: input.recoveryHashes,
      updatedAt: now,
    })
    .where(and(eq(users.id, id), eq(users.totpSecret, input.secret), isNull(users.totpEnabledAt)))
    .returning({ id: users.id })
  return rows.length === 1
}

/** Turns two-factor off: secret, step and recovery codes forgotten. */
export async function disableTotp(db: Db, id: string, now: number) {
  await db
    .update(users)
    .set({
      totpSecret: null,
      totpEnabledAt: null,
      totpLastStep: null,
      recoveryCodes: null,
      updatedAt: now,
    })
    .where(eq(users.id, id))
}

/**
 * Spends a TOTP step: true only if it is later than the last one accepted, so a code (or an
 * earlier one) seen on the wire cannot be used again. One conditional statement: of two
 * concurrent uses of a code, one wins.
 */
export async function spendTotpStep(db: Db, id: string, step: number): Promise<boolean> {
  const rows = await db
    .update(users)
    .set({ totpLastStep: step })
    .where(and(eq(users.id, id), or(isNull(users.totpLastStep), lt(users.totpLastStep, step))))
    .returning({ id: users.id })
  return rows.length === 1
}

/**
 * Spends recovery code `index` of the list as read (`seen`): it is removed only if the list has
 * not changed since, so a code is good once even when two requests race with it.
 */
export async function spendRecoveryCode(
  db: Db,
  id: string,
  seen: readonly (string | null)[],
  index: number,
): Promise<boolean> {
  const next = seen.map((h, i) => (i === index ? null : h)) as string[]
  const rows = await db
    .update(users)
    .set({ recoveryCodes: next })
    .where(and(eq(users.id, id), eq(users.recoveryCodes, seen as string[])))
    .returning({ id: users.id })
  return rows.length === 1
}

/** Replaces the recovery codes' hashes (two-factor must be on). */
export async function setRecoveryCodes(db: Db, id: string, hashes: string[], now: number) {
  const rows = await db
    .update(users)
    .set({ recoveryCodes: hashes, updatedAt: now })
    .where(and(eq(users.id, id), isNotNull(users.totpEnabledAt)))
    .returning({ id: users.id })
  return rows.length === 1
}

/**
 * The condition that keeps the store's last owner: the row is not an owner's, or another owner
 * who can sign in remains. Inside the one statement that demotes or removes, so two owners
 * demoting each other at once cannot both succeed (a count read first, then a write, could).
 */
function notLastOwner(id: string): SQL {
  return sql`(${users.role} <> 'owner' OR (SELECT count(*) FROM ${users} AS other WHERE other.role = 'owner' AND other.disabled_at IS NULL AND other.id <> ${id}) > 0)`
}

/** What a role change or a removal did: done, refused (the last owner), or nobody has the id. */
export type OwnerSafeResult = 'done' | 'last_owner' | 'not_found'

async function outcome(db: Db, id: string, changed: boolean): Promise<OwnerSafeResult> {
  if (changed) return 'done'
  return (await getUser(db, id)) ? 'last_owner' : 'not_found'
}

/**
 * Gives a person another role, unless that takes the owner role from the last owner: one
 * conditional statement.
 */
export async function setRole(
  db: Db,
  id: string,
  role: Role,
  now: number,
): Promise<OwnerSafeResult> {
  const rows = await db
    .update(users)
    .set({ role, updatedAt: now })
    .where(and(eq(users.id, id), role === 'owner' ? undefined : notLastOwner(id)))
    .returning({ id: users.id })
  return outcome(db, id, rows.length === 1)
}

/**
 * Removes a person for good (their sessions are ended by the caller), unless they are the last
 * owner: one conditional statement.
 */
export async function removeUser(db: Db, id: string): Promise<OwnerSafeResult> {
  const rows = await db
    .delete(users)
    .where(and(eq(users.id, id), notLastOwner(id)))
    .returning({ id: users.id })
  return outcome(db, id, rows.length === 1)
}
