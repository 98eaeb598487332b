/**
 * Settings kept in the database: generated ones (the admin token hash, the session secret) and
 * the owner's (the two-factor requirement, the till link's lifetime).
 */
import { eq } from 'drizzle-orm'
import { settings } from '../../db/schema.js'
import type { Db } from './db.js'

/** The stored value of a setting, or null. */
export async function getSetting(db: Db, key: string): Promise<string | null> {
  const [row] = await db
    .select({ value: settings.value })
    .from(settings)
    .where(eq(settings.key, key))
  return row?.value ?? null
}

/**
 * Stores `value` unless the key already has one, and returns the value that is stored. Two
 * processes starting at once both call this with their own candidate; the first insert wins and
 * both get the winner's value back.
 */
export async function setSettingIfAbsent(
  db: Db,
  key: string,
  value: string,
  now: number,
): Promise<string> {
  await db.insert(settings).values({ key, value, createdAt: now }).onConflictDoNothing()
  const stored = await getSetting(db, key)
  if (stored === null) throw new Error(`Setting ${key} vanished between insert and read`)
  return stored
}

/** Stores `value` for `key`, replacing any earlier value (settings the owner changes). */
export async function setSetting(db: Db, key: string, value: string, now: number): Promise<void> {
  await db
    .insert(settings)
    .values({ key, value, createdAt: now })
    .onConflictDoUpdate({ target: settings.key, set: { value } })
}

/** The setting that makes two-factor sign-in compulsory for everyone ('on' or absent). */
export const REQUIRE_TWO_FACTOR = 'require_two_factor'

/** Whether the owner requires two-factor sign-in of everyone. */
export async function twoFactorRequired(db: Db): Promise<boolean> {
  return (await getSetting(db, REQUIRE_TWO_FACTOR)) === 'on'
}
