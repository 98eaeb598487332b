import { describe, expect, it } from 'vitest'
import { toBase64Url, toHex, utf8 } from '../../src/lib/bytes.js'
import {
  hashPassword,
  MAX_STORED_ITERATIONS,
  needsRehash,
  OWASP_ITERATIONS,
  passwordProblem,
  pbkdf2Sha256,
  verifyPassword,
  WORKERS_MAX_ITERATIONS,
} from '../../src/security/passwords.js'

// Low counts keep the suite fast; one test runs the real default.
const FAST = 1000
const B64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'
const GOOD = 'correct horse battery staple'

describe('pbkdf2Sha256', () => {
  it('matches the published PBKDF2-HMAC-SHA256 vectors (P="password", S="salt", c=1 and c=2)', async () => {
    const p = utf8('password')
    const s = utf8('salt')
    expect(toHex(await pbkdf2Sha256(p, s, 1, 32))).toBe(
      '120fb6cffcf8b32c43e7225256c4f837a86548c92ccc35480805987cb70be17b',
    )
    expect(toHex(await pbkdf2Sha256(p, s, 2, 32))).toBe(
      'ae4d0c95af6b46d32d0adff928f06dd02a303f8ef3c251dfd6e2d85a95474c43',
    )
  })

  it('matches RFC 7914 §11 (P="passwd", S="salt", c=1, dkLen=64)', async () => {
    expect(toHex(await pbkdf2Sha256(utf8('passwd'), utf8('salt'), 1, 64))).toBe(
      '55ac046e56e3089fec1691c22544b605f94185216dde0465e68b9d57c20dacbc' +
        '49ca9cccf179b645991664b39d77ef317c71b845b1e30bd509112041d3a19783',
    )
  })
})

describe('hashPassword / verifyPassword', () => {
  it('round-trips at the OWASP default and stores a self-describing string', async () => {
    const stored = await hashPassword(GOOD)
    expect(stored).toMatch(/^pbkdf2-sha256\$600000\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/)
    expect(await verifyPassword(GOOD, stored)).toBe(true)
  })

  it('verifies a string assembled from the raw primitive (the format is plain PBKDF2)', async () => {
    const salt = new Uint8Array(16).fill(7)
    const hash = await pbkdf2Sha256(utf8(GOOD), salt, 3, 32)
    const stored = `pbkdf2-sha256$3$${toBase64Url(salt)}$${toBase64Url(hash)}`
    expect(await verifyPassword(GOOD, stored)).toBe(true)
  })

  it('draws a fresh salt each time', async () => {
    const [a, b] = await Promise.all([hashPassword(GOOD, FAST), hashPassword(GOOD, FAST)])
    expect(a).not.toBe(b)
  })

  it('refuses a wrong password', async () => {
    const stored = await hashPassword(GOOD, FAST)
    expect(await verifyPassword('correct horse battery stapler', stored)).toBe(false)
    expect(await verifyPassword('', stored)).toBe(false)
  })

  it('normalises with NFKC, so composed and decomposed forms are one password', async () => {
    const composed = 'mot de passe d\u00e9j\u00e0 vu'
    const decomposed = 'mot de passe de\u0301ja\u0300 vu'
    const stored = await hashPassword(composed, FAST)
    expect(await verifyPassword(decomposed, stored)).toBe(true)
    // Full-width letters are compatibility forms of ASCII ones.
    const ascii = await hashPassword('Paylinks staff', FAST)
    expect(await verifyPassword('\uff30aylinks staff', ascii)).toBe(true)
  })

  it('refuses a tampered or malformed stored string without throwing', async () => {
    const stored = await hashPassword(GOOD, FAST)
    const [scheme, count, salt, hash] = stored.split('$') as [string, string, string, string]
    const flip = (s: string, i: number) =>
      s.slice(0, i) + (s[i] === 'A' ? 'B' : 'A') + s.slice(i + 1)
    // Same bytes, non-canonical text: an unused trailing bit of the last character set.
    const lastBitFlipped = B64URL[B64URL.indexOf(hash.at(-1)!) ^ 1]
    const nonCanonical = [scheme, count, salt, hash.slice(0, -1) + lastBitFlipped].join('$')
    expect(needsRehash(nonCanonical, FAST)).toBe(true)
    const bad = [
      [scheme, count, salt, flip(hash, 5)].join('$'),
      [scheme, count, flip(salt, 0), hash].join('$'),
      [scheme, String(Number(count) + 1), salt, hash].join('$'),
      nonCanonical,
      ['pbkdf2-sha1', count, salt, hash].join('$'),
      [scheme, '01000', salt, hash].join('$'),
      [scheme, '0', salt, hash].join('$'),
      [scheme, '-5', salt, hash].join('$'),
      [scheme, '1e3', salt, hash].join('$'),
      [scheme, count, salt, `${hash}AA`].join('$'),
      [scheme, count, salt.slice(0, -2), hash].join('$'),
      [scheme, count, salt, hash.replace(/[A-Za-z0-9]/, '+')].join('$'),
      [scheme, count, salt].join('$'),
      `${stored}$`,
      '',
      'x'.repeat(1_000_000),
    ]
    for (const s of bad) expect(await verifyPassword(GOOD, s), s.slice(0, 80)).toBe(false)
    expect(await verifyPassword(GOOD, stored)).toBe(true)
  })

  it('refuses an absurd iteration count before deriving anything', async () => {
    const stored = await hashPassword(GOOD, FAST)
    const [scheme, , salt, hash] = stored.split('$')
    const absurd = [scheme, String(MAX_STORED_ITERATIONS + 1), salt, hash].join('$')
    const huge = [scheme, '99999999', salt, hash].join('$')
    const started = performance.now()
    expect(await verifyPassword(GOOD, absurd)).toBe(false)
    expect(await verifyPassword(GOOD, huge)).toBe(false)
    expect(performance.now() - started).toBeLessThan(50)
  })

  it('refuses, without deriving, a count above the caller cap (the Workers limit)', async () => {
    const stored = await hashPassword(GOOD, WORKERS_MAX_ITERATIONS + 1)
    expect(await verifyPassword(GOOD, stored, WORKERS_MAX_ITERATIONS)).toBe(false)
    expect(await verifyPassword(GOOD, stored)).toBe(true)
    const atCap = await hashPassword(GOOD, WORKERS_MAX_ITERATIONS)
    expect(await verifyPassword(GOOD, atCap, WORKERS_MAX_ITERATIONS)).toBe(true)
  })

  it('refuses a 1 MB password quickly, before hashing', async () => {
    const stored = await hashPassword(GOOD, OWASP_ITERATIONS)
    const huge = 'a'.repeat(1024 * 1024)
    const started = performance.now()
    expect(await verifyPassword(huge, stored)).toBe(false)
    await expect(hashPassword(huge)).rejects.toThrow(RangeError)
    expect(passwordProblem(huge)).toBe('too_long')
    // A 600,000-iteration derivation takes hundreds of milliseconds; a refusal takes none.
    expect(performance.now() - started).toBeLessThan(50)
  })

  it('throws on an iteration count it would not verify', async () => {
    await expect(hashPassword(GOOD, 0)).rejects.toThrow(RangeError)
    await expect(hashPassword(GOOD, 1.5)).rejects.toThrow(RangeError)
    await expect(hashPassword(GOOD, MAX_STORED_ITERATIONS + 1)).rejects.toThrow(RangeError)
  })
})

describe('needsRehash', () => {
  it('asks for a rehash when the stored count is below the target, not at or above it', async () => {
    const cheap = await hashPassword(GOOD, FAST)
    expect(needsRehash(cheap)).toBe(true)
    expect(needsRehash(cheap, FAST)).toBe(false)
    expect(needsRehash(cheap, FAST + 1)).toBe(true)
    expect(needsRehash(cheap, FAST - 1)).toBe(false)
  })

  it('asks for a rehash of a malformed string', () => {
    expect(needsRehash('not a hash')).toBe(true)
    expect(needsRehash('')).toBe(true)
  })
})

describe('passwordProblem', () => {
  it('accepts a long, uncommon password', () => {
    expect(passwordProblem(GOOD)).toBeNull()
    expect(passwordProblem(`${'x'.repeat(11)}y`)).toBeNull()
  })

  it('says too_short under 12 characters, counting code points', () => {
    expect(passwordProblem('abcdefghij1')).toBe('too_short')
    expect(passwordProblem('')).toBe('too_short')
    // 11 emoji are 22 UTF-16 units but 11 characters.
    expect(passwordProblem('\u{1F600}'.repeat(11))).toBe('too_short')
    expect(passwordProblem('\u{1F600}\u{1F601}'.repeat(6))).toBeNull()
  })

  it('says too_long over 128 characters', () => {
    expect(passwordProblem(`${GOOD} `.repeat(5).slice(0, 128))).toBeNull()
    expect(passwordProblem(`${GOOD} `.repeat(5).slice(0, 129))).toBe('too_long')
  })

  it('says common for a listed password in any case, and for one repeated character', () => {
    expect(passwordProblem('password1234')).toBe('common')
    expect(passwordProblem('PassWord1234')).toBe('common')
    expect(passwordProblem('aaaaaaaaaaaaaaaa')).toBe('common')
    expect(passwordProblem('1111111111111')).toBe('common')
  })
})
