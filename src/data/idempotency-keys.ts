/**
 * The merchant API's `Idempotency-Key`s (table `idempotency_keys`, docs/decisions/idempotency.md):
 * a key is claimed by one conditional statement before its request runs, its answer is stored
 * after, or the claim is let go so that a retry runs again. Every write names the run (`attempt`)
 * that holds the key, so a run taken over never overwrites its successor's answer.
 */
import { and, eq, lt, or } from 'drizzle-orm'
import { type IdempotencyRecord, idempotencyKeys } from '../../db/schema.js'
import type { Db } from './db.js'

/** How long a key and its answer are kept from its first request. */
export const IDEMPOTENCY_KEY_TTL_MS = 24 * 60 * 60_000

/**
 * How long a run may hold a key before a retry with the same request may take it over: a process
 * that died (or a Worker evicted) mid-request would otherwise hold it for a day. Far longer than
 * any request runs (the gateway's calls time out within a minute).
 */
export const IDEMPOTENCY_RUN_STALE_MS = 5 * 60_000

/** What identifies a request under a key: the same key with another fingerprint is a misuse. */
export interface RequestFingerprint {
  method: string
  path: string
  bodySha256: string
}

/** The answer a done key replays. */
export interface StoredAnswer {
  status: number
  headers: [string, string][]
  body: Uint8Array
}

export type ClaimResult =
  | { kind: 'claimed' }
  | { kind: 'running'; record: IdempotencyRecord }
  | { kind: 'done'; record: IdempotencyRecord }
  | { kind: 'gone' }

/**
 * Claims (`credentialId`, `key`) for the run `attempt`, in one INSERT … ON CONFLICT DO UPDATE
 * whose update applies only to a row past its 24 hours, or to a stale run of the same request:
 * of concurrent claims, exactly one gets the row back (on better-sqlite3 and D1 alike). Otherwise
 * the row as it stands is read: another run holds the key, or its answer is kept; `gone` when the
 * row went between the two statements (the caller claims again).
 */
export async function claimIdempotencyKey(
  db: Db,
  claim: {
    credentialId: string
    key: string
    fingerprint: RequestFingerprint
    attempt: string
    now: number
  },
): Promise<ClaimResult> {
  const { credentialId, key, fingerprint, attempt, now } = claim
  const fresh = {
    method: fingerprint.method,
    path: fingerprint.path,
    bodySha256: fingerprint.bodySha256,
    state: 'running' as const,
    attempt,
    status: null,
    headers: null,
    body: null,
    createdAt: now,
  }
  const claimed = await db
    .insert(idempotencyKeys)
    .values({ credentialId, key, ...fresh })
    .onConflictDoUpdate({
      target: [idempotencyKeys.credentialId, idempotencyKeys.key],
      set: fresh,
      setWhere: or(
        lt(idempotencyKeys.createdAt, now - IDEMPOTENCY_KEY_TTL_MS + 1),
        and(
          eq(idempotencyKeys.state, 'running'),
          lt(idempotencyKeys.createdAt, now - IDEMPOTENCY_RUN_STALE_MS + 1),
          eq(idempotencyKeys.method, fingerprint.method),
          eq(idempotencyKeys.path, fingerprint.path),
          eq(idempotencyKeys.bodySha256, fingerprint.bodySha256),
        ),
      ),
    })
    .returning({ attempt: idempotencyKeys.attempt })
  if (claimed[0]?.attempt === attempt) return { kind: 'claimed' }
  const [record] = await db
    .select()
    .from(idempotencyKeys)
    .where(and(eq(idempotencyKeys.credentialId, credentialId), eq(idempotencyKeys.key, key)))
    .limit(1)
  if (!record) return { kind: 'gone' }
  return record.state === 'done' ? { kind: 'done', record } : { kind: 'running', record }
}

const heldBy = (credentialId: string, key: string, attempt: string) =>
  and(
    eq(idempotencyKeys.credentialId, credentialId),
    eq(idempotencyKeys.key, key),
    eq(idempotencyKeys.attempt, attempt),
    eq(idempotencyKeys.state, 'running'),
  )

/** Stores the answer of the run `attempt`, which still holds the key; false when it no longer does. */
export async function storeIdempotentAnswer(
  db: Db,
  credentialId: string,
  key: string,
  attempt: string,
  answer: StoredAnswer,
): Promise<boolean> {
  const rows = await db
    .update(idempotencyKeys)
    .set({ state: 'done', status: answer.status, headers: answer.headers, body: answer.body })
    .where(heldBy(credentialId, key, attempt))
    .returning({ key: idempotencyKeys.key })
  return rows.length === 1
}

/** Lets the key go (the run `attempt` answered nothing worth keeping): a retry then runs again. */
export async function releaseIdempotencyKey(
  db: Db,
  credentialId: string,
  key: string,
  attempt: string,
): Promise<void> {
  await db.delete(idempotencyKeys).where(heldBy(credentialId, key, attempt))
}

/** Housekeeping: removes the keys past their 24 hours (ignored already); returns how many went. */
export async function purgeIdempotencyKeys(db: Db, now: number): Promise<number> {
  const rows = await db
    .delete(idempotencyKeys)
    .where(lt(idempotencyKeys.createdAt, now - IDEMPOTENCY_KEY_TTL_MS))
    .returning({ key: idempotencyKeys.key })
  return rows.length
}
