/** Settings generated once and kept: the admin token hash, the session secret. */
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

/** Stores `value` for `key`, replacing what was there. */
export async function setSetting(db: Db, key: string, value: string, now: number): Promise<void> {
  await db
    .insert(settings)
    .values({ key, value, createdAt: now })
    .onConflictDoUpdate({ target: settings.key, set: { value } })
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
