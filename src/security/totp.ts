/**
 * Time-based one-time passwords (RFC 6238) as authenticator apps use them: HMAC-SHA-1, 30-second
 * steps, 6 digits, secrets in base32 (RFC 4648, no padding). WebCrypto only, for Node and Workers.
 * Times are milliseconds since the epoch, as `clock()` gives them.
 * Kept rather than `otpauth`: docs/decisions/libraries.md, "TOTP".
 */
import { randomBytes, timingSafeEqual } from '../lib/bytes.js'

const STEP_MS = 30_000
const DIGITS = 6
const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567'

/** Base32 (RFC 4648) without padding. */
export function toBase32(bytes: Uint8Array): string {
  let out = ''
  let value = 0
  let bits = 0
  for (const b of bytes) {
    value = ((value << 8) | b) & 0xffff
    bits += 8
    while (bits >= 5) {
      bits -= 5
      out += BASE32[(value >> bits) & 31]
    }
  }
  if (bits > 0) out += BASE32[(value << (5 - bits)) & 31]
  return out
}

/**
 * Decodes base32, ignoring case, spaces and trailing padding (apps show secrets in groups).
 * Returns null for any other character or an impossible length.
 */
export function fromBase32(text: string): Uint8Array<ArrayBuffer> | null {
  const clean = text.replace(/\s+/g, '').replace(/=+$/, '').toUpperCase()
  if ([1, 3, 6].includes(clean.length % 8)) return null
  const out = new Uint8Array(Math.floor((clean.length * 5) / 8))
  let value = 0
  let bits = 0
  let j = 0
  for (const ch of clean) {
    const v = BASE32.indexOf(ch)
    if (v < 0) return null
    value = ((value << 5) | v) & 0xffff
    bits += 5
    if (bits >= 8) {
      bits -= 8
      out[j++] = (value >> bits) & 0xff
    }
  }
  return out
}

/** A new shared secret: 20 random bytes (the HMAC-SHA-1 block RFC 4226 recommends), in base32. */
export function newTotpSecret(): string {
  return toBase32(randomBytes(20))
}

/** The time step (counter) that `time` falls in. */
export function totpStep(time: number): number {
  return Math.floor(time / STEP_MS)
}

async function hotp(key: Uint8Array<ArrayBuffer>, counter: number): Promise<string> {
  const message = new Uint8Array(8)
  const view = new DataView(message.buffer)
  // Big-endian 64-bit counter; it passes 32 bits only in the year 6053, but split it anyway.
  view.setUint32(0, Math.floor(counter / 2 ** 32))
  view.setUint32(4, counter >>> 0)
  const hmacKey = await crypto.subtle.importKey(
    'raw',
    key,
    { name: 'HMAC', hash: 'SHA-1' },
    false,
    ['sign'],
  )
  const mac = new Uint8Array(await crypto.subtle.sign('HMAC', hmacKey, message))
  // Dynamic truncation (RFC 4226 §5.3).
  const offset = mac[19]! & 0x0f
  const binary = new DataView(mac.buffer).getUint32(offset) & 0x7fffffff
  return (binary % 10 ** DIGITS).toString().padStart(DIGITS, '0')
}

function secretKey(secret: string): Uint8Array<ArrayBuffer> | null {
  if (typeof secret !== 'string' || secret.length > 256) return null
  const key = fromBase32(secret)
  return key && key.length > 0 ? key : null
}

/** The 6-digit code for `secret` at `time` (ms). Throws on a secret that is not base32. */
export async function totpCode(secret: string, time: number): Promise<string> {
  const key = secretKey(secret)
  if (!key) throw new RangeError('TOTP secret is not base32')
  if (!Number.isFinite(time) || time < 0) throw new RangeError('TOTP time must be >= 0')
  return hotp(key, totpStep(time))
}

/**
 * The code as typed, reduced to ASCII digits: spaces dropped, Arabic-Indic and Eastern
 * Arabic-Indic digits (٠-٩, ۰-۹) mapped. Null unless exactly six digits remain.
 */
export function normaliseTotpCode(code: unknown): string | null {
  if (typeof code !== 'string' || code.length > 32) return null
  const digits = code
    .replace(/\s+/g, '')
    .replace(/[\u0660-\u0669]/g, (d) => String(d.charCodeAt(0) - 0x0660))
    .replace(/[\u06f0-\u06f9]/g, (d) => String(d.charCodeAt(0) - 0x06f0))
  return /^[0-9]{6}$/.test(digits) ? digits : null
}

/**
 * Checks `code` against the steps within `window` of `time` (clock drift, slow typing).
 * Returns the matched step, which the caller stores and refuses next time (a code is good
 * once), or null. Every step of the window is computed and compared, in constant time.
 */
export async function verifyTotp(
  secret: string,
  code: unknown,
  time: number,
  options: { window?: number } = {},
): Promise<number | null> {
  const typed = normaliseTotpCode(code)
  const key = secretKey(secret)
  if (typed === null || !key || !Number.isFinite(time) || time < 0) return null
  const window = Math.min(Math.max(Math.trunc(options.window ?? 1), 0), 10)
  const now = totpStep(time)
  let matched: number | null = null
  for (let step = now - window; step <= now + window; step++) {
    if (step < 0) continue
    // No early return: the same work whichever step (if any) matches.
    if (timingSafeEqual(typed, await hotp(key, step)) && matched === null) matched = step
  }
  return matched
}

/**
 * The otpauth:// URI an authenticator app reads from a QR code (Google's Key Uri Format).
 * Issuer and account are percent-encoded; the format forbids a colon in either.
 */
export function otpauthUri(secret: string, label: { issuer: string; account: string }): string {
  const { issuer, account } = label
  if (!issuer || !account || issuer.includes(':') || account.includes(':'))
    throw new RangeError('otpauth issuer and account must be non-empty and without ":"')
  const key = secretKey(secret)
  if (!key) throw new RangeError('TOTP secret is not base32')
  const enc = encodeURIComponent
  const query = `secret=${toBase32(key)}&issuer=${enc(issuer)}&algorithm=SHA1&digits=${DIGITS}&period=${STEP_MS / 1000}`
  return `otpauth://totp/${enc(issuer)}:${enc(account)}?${query}`
}
