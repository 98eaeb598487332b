/** Byte and text helpers on Web APIs only (no Buffer), shared by the client, the simulator and the app. */

const encoder = new TextEncoder()
const decoder = new TextDecoder('utf-8', { fatal: false })

/** UTF-8 bytes of a string. */
export function utf8(text: string): Uint8Array<ArrayBuffer> {
  return encoder.encode(text) as Uint8Array<ArrayBuffer>
}

/** A string from UTF-8 bytes (invalid sequences become U+FFFD). */
export function fromUtf8(bytes: Uint8Array): string {
  return decoder.decode(bytes)
}

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'
const B64_INDEX = new Map([...B64].map((ch, i) => [ch, i]))

/** Standard base64 with padding. */
export function toBase64(bytes: Uint8Array): string {
  let out = ''
  for (let i = 0; i < bytes.length; i += 3) {
    const a = bytes[i] ?? 0
    const b = bytes[i + 1] ?? 0
    const c = bytes[i + 2] ?? 0
    const n = (a << 16) | (b << 8) | c
    out += B64[(n >> 18) & 63]! + B64[(n >> 12) & 63]!
    out += i + 1 < bytes.length ? B64[(n >> 6) & 63]! : '='
    out += i + 2 < bytes.length ? B64[n & 63]! : '='
  }
  return out
}

/** URL-safe base64 without padding. */
export function toBase64Url(bytes: Uint8Array): string {
  return toBase64(bytes).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')
}

/**
 * Decodes standard or URL-safe base64, with or without padding. Returns null when the text is
 * not base64 (wrong characters, impossible length, non-zero trailing bits are tolerated).
 */
export function fromBase64(text: string): Uint8Array<ArrayBuffer> | null {
  const clean = text.trim().replace(/-/g, '+').replace(/_/g, '/').replace(/=+$/, '')
  if (clean.length % 4 === 1) return null
  const out = new Uint8Array(Math.floor((clean.length * 3) / 4))
  let bits = 0
  let value = 0
  let j = 0
  for (const ch of clean) {
    const v = B64_INDEX.get(ch)
    if (v === undefined) return null
    value = (value << 6) | v
    bits += 6
    if (bits >= 8) {
      bits -= 8
      out[j++] = (value >> bits) & 0xff
    }
  }
  return out.subarray(0, j) as Uint8Array<ArrayBuffer>
}

/** Lower-case hex of bytes. */
export function toHex(bytes: Uint8Array): string {
  let out = ''
  for (const b of bytes) out += b.toString(16).padStart(2, '0')
  return out
}

// Small draws come from a pool (docs/decisions/performance.md, "Random bytes from a pool").
const POOL_SIZE = 4096
const SMALL = 256
const pool = new Uint8Array(POOL_SIZE)
let poolOffset = POOL_SIZE

/** Cryptographically random bytes. */
export function randomBytes(length: number): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(length)
  if (length > SMALL) {
    crypto.getRandomValues(out)
    return out
  }
  if (poolOffset + length > POOL_SIZE) {
    crypto.getRandomValues(pool)
    poolOffset = 0
  }
  out.set(pool.subarray(poolOffset, poolOffset + length))
  pool.fill(0, poolOffset, poolOffset + length)
  poolOffset += length
  return out
}

/** The base62 digits in ascending order (their ASCII order is their numeric order). */
export const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'

/** A random base62 string of the given length, without modulo bias. */
export function randomBase62(length: number): string {
  let out = ''
  // Straight from the pool, one byte per character (a few more for the rejected ones): request
  // ids are drawn on every request.
  while (out.length < length) {
    if (poolOffset === POOL_SIZE) {
      crypto.getRandomValues(pool)
      poolOffset = 0
    }
    const b = pool[poolOffset] as number
    pool[poolOffset++] = 0
    // 248 = 62 * 4: values above are rejected so every character is equally likely.
    if (b < 248) out += BASE62[b % 62]
  }
  return out
}

/** Compares two strings in time that depends only on their lengths. */
export function timingSafeEqual(a: string, b: string): boolean {
  const x = utf8(a)
  const y = utf8(b)
  let diff = x.length ^ y.length
  const n = Math.max(x.length, y.length)
  for (let i = 0; i < n; i++) diff |= (x[i] ?? 0) ^ (y[i] ?? 0)
  return diff === 0
}
