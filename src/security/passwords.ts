/**
 * Password hashing for staff accounts: PBKDF2-HMAC-SHA256 on WebCrypto alone, so the same code runs
 * on Node and on Workers. Stored as `pbkdf2-sha256$<iterations>$<salt b64url>$<hash b64url>`, which
 * names its own cost: raising the count later only needs `needsRehash` at the next login.
 * Why these numbers, and the Workers cap: docs/decisions/passwords.md.
 */
import { fromBase64, randomBytes, timingSafeEqual, toBase64Url, utf8 } from '../lib/bytes.js'

/**
 * OWASP Password Storage Cheat Sheet (cheatsheetseries.owasp.org/cheatsheets/
 * Password_Storage_Cheat_Sheet.html, "PBKDF2" section, as revised in 2023): 600,000 iterations for
 * PBKDF2-HMAC-SHA256. The default wherever the runtime allows it (Node).
 */
export const OWASP_ITERATIONS = 600_000

/**
 * Cloudflare Workers refuse a PBKDF2 call above 100,000 iterations ("Pbkdf2 failed: iteration
 * counts above 100000 are not supported", workerd issue #1346), so a Worker hashes at that maximum
 * and can verify only strings at or under it. Pass it as `iterations` / `maxIterations` there.
 */
export const WORKERS_MAX_ITERATIONS = 100_000

/** The most a stored string may ask for: a forged or corrupt row must not make the server spin. */
export const MAX_STORED_ITERATIONS = 10_000_000

/** Longest password accepted, in code points after NFKC. */
export const MAX_PASSWORD_LENGTH = 128
/** Shortest password accepted for a new password, in code points after NFKC. */
export const MIN_PASSWORD_LENGTH = 12

const SCHEME = 'pbkdf2-sha256'
const SALT_BYTES = 16
const KEY_BYTES = 32
// Checked on the raw string before NFKC runs, so a megabyte costs a length read and nothing more.
// NFKC may shorten a string (combining marks compose), hence the room above 128 code points.
const MAX_RAW_UNITS = MAX_PASSWORD_LENGTH * 8

/** Why a new password is refused, or null when it is acceptable. */
export type PasswordProblem = 'too_short' | 'too_long' | 'common'

// Only the common passwords long enough to pass the length rule matter; shorter ones fail on it.
const COMMON = new Set([
  '123456789012',
  '1234567890123',
  '12345678901234',
  '123456123456',
  '123123123123',
  'qwerty123456',
  'qwertyuiop12',
  'qwertyuiop123',
  '1q2w3e4r5t6y',
  'password1234',
  'password12345',
  'password123456',
  'passwordpassword',
  'iloveyou1234',
  'welcome12345',
  'letmein12345',
  'administrator',
  'abcdefghijkl',
  'abc123456789',
  'azertyuiop12',
  'motdepasse123',
  'paylinks1234',
])

/** NFKC form of a password, or null when it is too long to be worth normalising. */
function normalise(password: string): string | null {
  if (password.length > MAX_RAW_UNITS) return null
  const n = password.normalize('NFKC')
  return [...n].length > MAX_PASSWORD_LENGTH ? null : n
}

/** The rule a new password breaks (`too_short`, `too_long`, `common`), or null. */
export function passwordProblem(password: string): PasswordProblem | null {
  const n = normalise(password)
  if (n === null) return 'too_long'
  if ([...n].length < MIN_PASSWORD_LENGTH) return 'too_short'
  const lower = n.toLowerCase()
  // One character repeated ("aaaaaaaaaaaa", "111111111111") is as weak as any list entry.
  if (COMMON.has(lower) || /^(.)\1*$/su.test(lower)) return 'common'
  return null
}

/** Raw PBKDF2-HMAC-SHA256 on WebCrypto: `length` bytes derived from `password` and `salt`. */
export async function pbkdf2Sha256(
  password: Uint8Array<ArrayBuffer>,
  salt: Uint8Array<ArrayBuffer>,
  iterations: number,
  length: number,
): Promise<Uint8Array<ArrayBuffer>> {
  const key = await crypto.subtle.importKey('raw', password, 'PBKDF2', false, ['deriveBits'])
  const bits = await crypto.subtle.deriveBits(
    { name: 'PBKDF2', hash: 'SHA-256', salt, iterations },
    key,
    length * 8,
  )
  return new Uint8Array(bits)
}

/**
 * A storable hash of `password` (NFKC-normalised) with a fresh 16-byte salt. Throws RangeError for
 * a password over the length bound or a count outside 1..MAX_STORED_ITERATIONS: callers check
 * `passwordProblem` first.
 */
export async function hashPassword(
  password: string,
  iterations = OWASP_ITERATIONS,
): Promise<string> {
  const n = normalise(password)
  if (n === null) throw new RangeError('password too long')
  if (!validCount(iterations)) throw new RangeError('iteration count out of range')
  const salt = randomBytes(SALT_BYTES)
  const hash = await pbkdf2Sha256(utf8(n), salt, iterations, KEY_BYTES)
  return `${SCHEME}$${iterations}$${toBase64Url(salt)}$${toBase64Url(hash)}`
}

interface Stored {
  iterations: number
  salt: Uint8Array<ArrayBuffer>
  hash: string
}

function validCount(n: number): boolean {
  return Number.isSafeInteger(n) && n >= 1 && n <= MAX_STORED_ITERATIONS
}

/** Canonical unpadded base64url of exactly `bytes` bytes, or null (so no two texts mean one hash). */
function decodeExact(text: string, bytes: number): Uint8Array<ArrayBuffer> | null {
  if (!/^[A-Za-z0-9_-]+$/.test(text)) return null
  const out = fromBase64(text)
  if (!out || out.length !== bytes || toBase64Url(out) !== text) return null
  return out
}

/** The parts of a well-formed stored string, or null. */
function parse(stored: string): Stored | null {
  if (typeof stored !== 'string' || stored.length > 200) return null
  const parts = stored.split('$')
  if (parts.length !== 4 || parts[0] !== SCHEME) return null
  const [, count, saltText, hashText] = parts as [string, string, string, string]
  if (!/^[1-9][0-9]{0,7}$/.test(count)) return null
  const iterations = Number(count)
  if (!validCount(iterations)) return null
  const salt = decodeExact(saltText, SALT_BYTES)
  if (!salt || !decodeExact(hashText, KEY_BYTES)) return null
  return { iterations, salt, hash: hashText }
}

/**
 * True when `password` matches `stored`. False, never a throw, for a malformed string, a count
 * above `maxIterations` (pass WORKERS_MAX_ITERATIONS on Workers) or a password over the bound.
 */
export async function verifyPassword(
  password: string,
  stored: string,
  maxIterations = MAX_STORED_ITERATIONS,
): Promise<boolean> {
  const parsed = parse(stored)
  if (!parsed || parsed.iterations > maxIterations) return false
  const n = normalise(password)
  if (n === null) return false
  try {
    const hash = await pbkdf2Sha256(utf8(n), parsed.salt, parsed.iterations, KEY_BYTES)
    return timingSafeEqual(toBase64Url(hash), parsed.hash)
  } catch {
    // A runtime refusing the count (Workers above its cap) cannot confirm the password.
    return false
  }
}

/**
 * True when `stored` should be replaced by a fresh hash at the next successful login: malformed,
 * or cheaper than `iterations`. A dearer string is kept: rehashing never lowers the cost.
 */
export function needsRehash(stored: string, iterations = OWASP_ITERATIONS): boolean {
  const parsed = parse(stored)
  return !parsed || parsed.iterations < iterations
}
