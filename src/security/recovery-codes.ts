/**
 * One-time recovery codes for two-factor login: shown once, stored only as SHA-256 hashes,
 * each spent after use. WebCrypto only, for Node and Workers.
 */
import { randomBytes, timingSafeEqual } from '../lib/bytes.js'
import { sha256Hex } from '../lib/hash.js'

/** Digits and lower-case letters without 0/o, 1/i/l: nothing to misread on paper. */
export const RECOVERY_ALPHABET = '23456789abcdefghjkmnpqrstuvwxyz'
const CODE_LENGTH = 8
// 31 × 8: bytes at or above are rejected so every character is equally likely.
const ACCEPT_BELOW = 248

function randomCode(): string {
  let out = ''
  while (out.length < CODE_LENGTH) {
    for (const b of randomBytes(CODE_LENGTH)) {
      if (b < ACCEPT_BELOW && out.length < CODE_LENGTH)
        out += RECOVERY_ALPHABET[b % RECOVERY_ALPHABET.length]
    }
  }
  return `${out.slice(0, 4)}-${out.slice(4)}`
}

/** `n` new codes shaped `xxxx-xxxx` (about 39.6 random bits each), all different. */
export function newRecoveryCodes(n = 10): string[] {
  const codes = new Set<string>()
  while (codes.size < n) codes.add(randomCode())
  return [...codes]
}

/**
 * The code as typed, in its stored form: case folded, spaces and dashes dropped. Null unless
 * what remains is eight characters of the alphabet.
 */
export function normaliseRecoveryCode(code: unknown): string | null {
  if (typeof code !== 'string' || code.length > 64) return null
  const clean = code.toLowerCase().replace(/[\s\-\u2010-\u2015]+/g, '')
  if (clean.length !== CODE_LENGTH) return null
  for (const ch of clean) if (!RECOVERY_ALPHABET.includes(ch)) return null
  return clean
}

/** The stored form of a code: SHA-256 (hex) of its normalised text. Throws on a malformed code. */
export async function hashRecoveryCode(code: string): Promise<string> {
  const clean = normaliseRecoveryCode(code)
  if (clean === null) throw new RangeError('not a recovery code')
  return sha256Hex(clean)
}

/**
 * The index in `storedHashes` of the typed code, or null. Every stored hash is compared (no
 * early exit), so the time says nothing about which one matched. Spent codes may be left as
 * null in the list to keep indexes stable.
 */
export async function matchRecoveryCode(
  code: unknown,
  storedHashes: readonly (string | null)[],
): Promise<number | null> {
  const clean = normaliseRecoveryCode(code)
  if (clean === null) return null
  const hash = await sha256Hex(clean)
  let matched: number | null = null
  storedHashes.forEach((stored, i) => {
    if (stored !== null && timingSafeEqual(hash, stored) && matched === null) matched = i
  })
  return matched
}
