import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import {
  hashRecoveryCode,
  matchRecoveryCode,
  newRecoveryCodes,
  normaliseRecoveryCode,
  RECOVERY_ALPHABET,
} from '../../src/security/recovery-codes.js'

describe('newRecoveryCodes', () => {
  it('gives ten different xxxx-xxxx codes from the unambiguous alphabet by default', () => {
    const codes = newRecoveryCodes()
    expect(codes).toHaveLength(10)
    expect(new Set(codes).size).toBe(10)
    for (const code of codes) expect(code).toMatch(/^[2-9a-hjkmnp-z]{4}-[2-9a-hjkmnp-z]{4}$/)
    expect(newRecoveryCodes(3)).toHaveLength(3)
  })

  it('never uses 0, 1, i, l or o, and uses every other character', () => {
    const seen = new Set(newRecoveryCodes(200).join('').replace(/-/g, ''))
    for (const ch of '01ilo') expect(seen.has(ch)).toBe(false)
    expect([...seen].sort().join('')).toBe(RECOVERY_ALPHABET)
  })
})

describe('hashRecoveryCode', () => {
  it('is the SHA-256 of the code without dash, whatever the case, spaces or dashes typed', async () => {
    const expected = createHash('sha256').update('abcd2345').digest('hex')
    for (const typed of ['abcd-2345', 'ABCD-2345', ' abcd 2345 ', 'abcd2345', 'ab-cd–23 45'])
      expect(await hashRecoveryCode(typed)).toBe(expected)
  })

  it('throws on something that is not a code', async () => {
    await expect(hashRecoveryCode('abcd-234')).rejects.toThrow(RangeError)
    await expect(hashRecoveryCode('abcd-2340')).rejects.toThrow(RangeError)
  })
})

describe('matchRecoveryCode', () => {
  it('returns the index of the matching stored hash, typed loosely', async () => {
    const codes = newRecoveryCodes()
    const stored = await Promise.all(codes.map(hashRecoveryCode))
    expect(await matchRecoveryCode(codes[7], stored)).toBe(7)
    expect(await matchRecoveryCode(codes[0]!.toUpperCase().replace('-', ' '), stored)).toBe(0)
  })

  it('refuses a spent code (left as null) and a code that was never issued', async () => {
    const codes = newRecoveryCodes(3)
    const stored: (string | null)[] = await Promise.all(codes.map(hashRecoveryCode))
    stored[1] = null
    expect(await matchRecoveryCode(codes[1], stored)).toBe(null)
    expect(await matchRecoveryCode(codes[2], stored)).toBe(2)
    const other = newRecoveryCodes(1)[0]!
    expect(await matchRecoveryCode(other, stored)).toBe(codes.includes(other) ? 0 : null)
  })

  it('refuses hostile input without throwing', async () => {
    const stored = [await hashRecoveryCode('abcd-2345')]
    for (const typed of ['', 'abcd', 'abcd-23456', 'x'.repeat(10_000), 'abcd-234o', null, 42, {}])
      expect(await matchRecoveryCode(typed, stored)).toBe(null)
    expect(normaliseRecoveryCode('\u0000abcd2345')).toBe(null)
    expect(await matchRecoveryCode('abcd-2345', [])).toBe(null)
  })
})
