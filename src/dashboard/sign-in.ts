/**
 * The steps of a person's sign-in that are not pages: the password check (the same hashing time
 * for an unknown e-mail), the short-lived token between the password and the second step, and
 * the second step's code (TOTP, each step good once, or a recovery code, each good once).
 */
import type { User } from '../../db/schema.js'
import type { Db } from '../data/db.js'
import {
  findUserByEmail,
  setPasswordHash,
  spendRecoveryCode,
  spendTotpStep,
} from '../data/users.js'
import { hashPassword, needsRehash, verifyPassword } from '../security/passwords.js'
import { matchRecoveryCode } from '../security/recovery-codes.js'
import { issueToken, verifyToken } from '../security/tokens.js'
import { verifyTotp } from '../security/totp.js'

/** How long the password step holds while the second step is typed. */
export const PENDING_TTL_MS = 5 * 60_000

// A hash of nothing anyone knows, made once per cost, so an unknown e-mail costs a full check.
const decoys = new Map<number, Promise<string>>()
function decoyHash(iterations: number): Promise<string> {
  let hash = decoys.get(iterations)
  if (!hash) {
    hash = hashPassword(crypto.randomUUID(), iterations)
    decoys.set(iterations, hash)
  }
  return hash
}

/**
 * The person whose e-mail and password these are, or null (unknown e-mail, wrong password,
 * removed or disabled person) after the same work in each case. A right password stored at a
 * lower cost than `iterations` is hashed again at that cost.
 */
export async function checkPassword(
  deps: { db: Db; passwordIterations: number; clock: () => number },
  email: string,
  password: string,
): Promise<User | null> {
  const { db, passwordIterations } = deps
  const user = email.length <= 254 ? await findUserByEmail(db, email) : null
  const stored = user?.passwordHash ?? (await decoyHash(passwordIterations))
  const ok = await verifyPassword(password, stored, passwordIterations)
  if (!ok || !user || user.disabledAt !== null) return null
  if (needsRehash(user.passwordHash, passwordIterations)) {
    const fresh = await hashPassword(password, passwordIterations)
    await setPasswordHash(db, user.id, fresh, deps.clock())
  }
  return user
}

/** What the password step leads to: the code page, or enrolment the store requires. */
export type PendingPurpose = 'code' | 'enrol'

const pendingScope = (purpose: PendingPurpose, userId: string) =>
  `dashboard:pending:${purpose}:${userId}`

/** The token that carries a passed password step to the next page (not a session). */
export async function issuePending(
  secret: string,
  purpose: PendingPurpose,
  userId: string,
  now: number,
): Promise<string> {
  return `${userId}~${await issueToken(secret, pendingScope(purpose, userId), now)}`
}

/** The person a pending token was issued for, when it is genuine and fresh; else null. */
export async function verifyPending(
  secret: string,
  purpose: PendingPurpose,
  token: unknown,
  now: number,
): Promise<string | null> {
  if (typeof token !== 'string' || token.length > 300) return null
  const [userId, signed] = token.split('~')
  if (!userId || !signed || !/^usr_[0-9A-Za-z]{16}$/.test(userId)) return null
  const ok = await verifyToken(secret, pendingScope(purpose, userId), signed, now, PENDING_TTL_MS)
  return ok ? userId : null
}

/**
 * Checks a second-step code: six digits against the TOTP secret (a step already used is
 * refused), else a recovery code (spent on use). Returns which kind passed, or null.
 */
export async function checkSecondFactor(
  db: Db,
  user: User,
  code: unknown,
  now: number,
): Promise<'totp' | 'recovery' | null> {
  if (!user.totpSecret || user.totpEnabledAt === null) return null
  const step = await verifyTotp(user.totpSecret, code, now)
  if (step !== null) {
    const fresh = user.totpLastStep === null || step > user.totpLastStep
    return fresh && (await spendTotpStep(db, user.id, step)) ? 'totp' : null
  }
  const codes = user.recoveryCodes ?? []
  const index = await matchRecoveryCode(code, codes)
  if (index === null) return null
  return (await spendRecoveryCode(db, user.id, codes, index)) ? 'recovery' : null
}
