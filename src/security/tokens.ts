/**
 * Stateless signed tokens for forms (CSRF) and the dashboard session, and the admin-token check.
 * HMAC-SHA-256 on WebCrypto; every comparison is constant-time.
 */
import { timingSafeEqual, toBase64Url, utf8 } from '../lib/bytes.js'
import { sha256Hex } from '../lib/hash.js'

const hmacKeys = new Map<string, Promise<CryptoKey>>()

function hmacKey(secret: string): Promise<CryptoKey> {
  let key = hmacKeys.get(secret)
  if (!key) {
    key = crypto.subtle.importKey('raw', utf8(secret), { name: 'HMAC', hash: 'SHA-256' }, false, [
      'sign',
    ])
    hmacKeys.set(secret, key)
  }
  return key
}

/** HMAC-SHA-256 of `data` as base64url. */
export async function hmac(secret: string, data: string): Promise<string> {
  const mac = await crypto.subtle.sign('HMAC', await hmacKey(secret), utf8(data))
  return toBase64Url(new Uint8Array(mac))
}

/** A token binding `scope` (e.g. a form's action) to the time it was issued. */
export async function issueToken(secret: string, scope: string, now: number): Promise<string> {
  return `${now.toString(36)}.${await hmac(secret, `${scope}|${now.toString(36)}`)}`
}

const BUCKET_MS = 10 * 60_000
const bucketed = new Map<string, Promise<string>>()

/** The start of the ten-minute window a shared token issued at `now` belongs to (and names). */
export function sharedTokenWindow(now: number): number {
  return now - (now % BUCKET_MS)
}

/**
 * A token for a public form, the same for every visitor of `scope` during a ten-minute window.
 * Such a token binds nothing to a visitor (anyone can load the form), so sharing it loses
 * nothing, and it spares a MAC per page view. Verified with `verifyToken` like any other.
 */
export function issueSharedToken(secret: string, scope: string, now: number): Promise<string> {
  const issued = sharedTokenWindow(now)
  const key = `${secret}|${scope}|${issued}`
  let token = bucketed.get(key)
  if (!token) {
    // Bounded memo: old windows are never asked for again.
    if (bucketed.size >= 5000) bucketed.clear()
    token = issueToken(secret, scope, issued)
    bucketed.set(key, token)
  }
  return token
}

/** True when `token` was issued by `issueToken` for `scope` no longer than `maxAgeMs` ago. */
export async function verifyToken(
  secret: string,
  scope: string,
  token: unknown,
  now: number,
  maxAgeMs: number,
): Promise<boolean> {
  if (typeof token !== 'string' || token.length > 200) return false
  const [issued, mac] = token.split('.')
  if (!issued || !mac || !/^[0-9a-z]{1,12}$/.test(issued)) return false
  const at = Number.parseInt(issued, 36)
  if (!(at <= now + 60_000 && now - at <= maxAgeMs)) return false
  return timingSafeEqual(mac, await hmac(secret, `${scope}|${issued}`))
}

/** Checks a presented admin token against the stored SHA-256 hash, in constant time. */
export async function checkAdminToken(presented: unknown, storedHash: string): Promise<boolean> {
  if (typeof presented !== 'string' || presented.length === 0 || presented.length > 512)
    return false
  return timingSafeEqual(await sha256Hex(presented), storedHash)
}
