import { createHmac } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import {
  fromBase32,
  newTotpSecret,
  otpauthUri,
  toBase32,
  totpCode,
  totpStep,
  verifyTotp,
} from '../../src/security/totp.js'

const ascii = (text: string) => new TextEncoder().encode(text)
// RFC 6238 Appendix B's SHA-1 seed, "12345678901234567890", in base32.
const RFC_SECRET = toBase32(ascii('12345678901234567890'))
const T = 1_111_111_111_000

/** RFC 4226 HOTP on node:crypto, written apart from the module under test. */
function nodeTotp(key: Uint8Array, timeMs: number): string {
  const counter = Buffer.alloc(8)
  counter.writeBigUInt64BE(BigInt(Math.floor(timeMs / 30_000)))
  const mac = createHmac('sha1', key).update(counter).digest()
  const offset = mac[mac.length - 1]! & 0x0f
  return String((mac.readUInt32BE(offset) & 0x7fffffff) % 1_000_000).padStart(6, '0')
}

describe('base32', () => {
  it('encodes the RFC 4648 test vectors without padding', () => {
    const vectors = ['', 'MY', 'MZXQ', 'MZXW6', 'MZXW6YQ', 'MZXW6YTB', 'MZXW6YTBOI']
    vectors.forEach((expected, n) => {
      expect(toBase32(ascii('foobar'.slice(0, n)))).toBe(expected)
    })
    expect(RFC_SECRET).toBe('GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ')
  })

  it('round-trips random bytes of every length, and reads lower case, spaces and padding', () => {
    for (let n = 0; n <= 25; n++) {
      const bytes = crypto.getRandomValues(new Uint8Array(n))
      expect(fromBase32(toBase32(bytes))).toEqual(bytes)
    }
    expect(fromBase32('mzxw 6ytb oi======')).toEqual(ascii('foobar'))
  })

  it('refuses characters outside the alphabet and impossible lengths', () => {
    for (const bad of ['MZXW1', 'MZX0', 'M', 'MZX', 'MZXW6Y', 'MZ-XQ'])
      expect(fromBase32(bad)).toBe(null)
  })
})

describe('newTotpSecret', () => {
  it('is 20 random bytes in unpadded base32', () => {
    const a = newTotpSecret()
    expect(a).toMatch(/^[A-Z2-7]{32}$/)
    expect(fromBase32(a)).toHaveLength(20)
    expect(newTotpSecret()).not.toBe(a)
  })
})

describe('totpCode', () => {
  it("gives the last six digits of RFC 6238 Appendix B's SHA-1 values", async () => {
    const vectors: Array<[number, string]> = [
      [59, '94287082'],
      [1111111109, '07081804'],
      [1111111111, '14050471'],
      [1234567890, '89005924'],
      [2000000000, '69279037'],
      [20000000000, '65353130'],
    ]
    for (const [seconds, eight] of vectors) {
      expect(await totpCode(RFC_SECRET, seconds * 1000)).toBe(eight.slice(2))
    }
  })

  it('agrees with an HOTP computed on node:crypto for a random secret', async () => {
    const key = crypto.getRandomValues(new Uint8Array(20))
    const now = 1_760_000_123_456
    expect(await totpCode(toBase32(key), now)).toBe(nodeTotp(key, now))
  })

  it('throws on a secret that is not base32 and on a negative time', async () => {
    await expect(totpCode('not base32!', T)).rejects.toThrow(RangeError)
    await expect(totpCode('', T)).rejects.toThrow(RangeError)
    await expect(totpCode(RFC_SECRET, -1)).rejects.toThrow(RangeError)
  })
})

describe('verifyTotp', () => {
  const codeAt = (steps: number) => totpCode(RFC_SECRET, T + steps * 30_000)

  it('accepts the current code and returns its step', async () => {
    expect(await verifyTotp(RFC_SECRET, '050471', T)).toBe(totpStep(T))
    expect(totpStep(T)).toBe(37037037)
  })

  it('accepts a code one step early or late with the default window, and names that step', async () => {
    expect(await verifyTotp(RFC_SECRET, await codeAt(-1), T)).toBe(totpStep(T) - 1)
    expect(await verifyTotp(RFC_SECRET, await codeAt(1), T)).toBe(totpStep(T) + 1)
  })

  it('refuses a code two steps away, and one step away with window 0', async () => {
    expect(await verifyTotp(RFC_SECRET, await codeAt(-2), T)).toBe(null)
    expect(await verifyTotp(RFC_SECRET, await codeAt(2), T)).toBe(null)
    expect(await verifyTotp(RFC_SECRET, await codeAt(1), T, { window: 0 })).toBe(null)
    expect(await verifyTotp(RFC_SECRET, await codeAt(2), T, { window: 2 })).toBe(totpStep(T) + 2)
  })

  it('accepts the code typed with spaces or in Eastern Arabic digits', async () => {
    expect(await verifyTotp(RFC_SECRET, ' 050 471 ', T)).toBe(totpStep(T))
    expect(await verifyTotp(RFC_SECRET, '٠٥٠٤٧١', T)).toBe(totpStep(T))
    expect(await verifyTotp(RFC_SECRET, '۰۵۰ ۴۷۱', T)).toBe(totpStep(T))
  })

  it('refuses hostile input without throwing', async () => {
    const hostile: unknown[] = [
      '',
      'abcdef',
      '05047a',
      '05047',
      '0504711',
      '050471'.repeat(1000),
      '14050471',
      '-50471',
      '５０４７１０',
      null,
      50471,
      ['050471'],
    ]
    for (const code of hostile) expect(await verifyTotp(RFC_SECRET, code, T)).toBe(null)
    expect(await verifyTotp('', '050471', T)).toBe(null)
    expect(await verifyTotp('!!!', '050471', T)).toBe(null)
    expect(await verifyTotp(RFC_SECRET, '050471', Number.NaN)).toBe(null)
  })
})

describe('otpauthUri', () => {
  it('follows the Key Uri Format, percent-encoded', () => {
    const secret = 'JBSWY3DPEHPK3PXP'
    expect(otpauthUri(secret, { issuer: 'Paylinks', account: 'amina@example.dz' })).toBe(
      'otpauth://totp/Paylinks:amina%40example.dz?secret=JBSWY3DPEHPK3PXP&issuer=Paylinks&algorithm=SHA1&digits=6&period=30',
    )
    expect(otpauthUri(secret, { issuer: 'Boutique Sétif & Co', account: 'a b' })).toBe(
      'otpauth://totp/Boutique%20S%C3%A9tif%20%26%20Co:a%20b?secret=JBSWY3DPEHPK3PXP&issuer=Boutique%20S%C3%A9tif%20%26%20Co&algorithm=SHA1&digits=6&period=30',
    )
  })

  it('refuses a colon or an empty issuer or account, and a bad secret', () => {
    expect(() => otpauthUri('JBSWY3DP', { issuer: 'a:b', account: 'x' })).toThrow(RangeError)
    expect(() => otpauthUri('JBSWY3DP', { issuer: 'a', account: 'x:y' })).toThrow(RangeError)
    expect(() => otpauthUri('JBSWY3DP', { issuer: '', account: 'x' })).toThrow(RangeError)
    expect(() => otpauthUri('0000', { issuer: 'a', account: 'x' })).toThrow(RangeError)
  })
})
