/** Single-use proofs (captcha solutions): spent once, remembered until they expire by themselves. */
import { lt } from 'drizzle-orm'
import { spentTokens } from '../../db/schema.js'
import type { Db } from './db.js'

/**
 * Marks `key` spent until `expiresAt`; true when this call spent it, false when it already was.
 * One insert that ignores a conflict: of concurrent spends of one key, exactly one wins.
 */
export async function spendToken(db: Db, key: string, expiresAt: number): Promise<boolean> {
  const inserted = await db
    .insert(spentTokens)
    .values({ key, expiresAt })
    .onConflictDoNothing({ target: spentTokens.key })
    .returning({ key: spentTokens.key })
  return inserted.length === 1
}

// Clocks of processes and isolates may differ a little: one slightly behind must still find a
// proof spent while it would take it as unexpired.
const CLOCK_MARGIN_MS = 60_000

/**
 * Housekeeping: forgets proofs that expired (a minute before `now`, for clocks that differ);
 * from then on they are refused for their expiry alone. Returns how many went.
 */
export async function purgeSpentTokens(db: Db, now: number): Promise<number> {
  const rows = await db
    .delete(spentTokens)
    .where(lt(spentTokens.expiresAt, now - CLOCK_MARGIN_MS))
    .returning({ key: spentTokens.key })
  return rows.length
}
