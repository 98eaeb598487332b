import { createHash, createHmac } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { hex, hmacSha256, sha256HexOf } from '../../src/lib/sha256-sync.js'

// Lengths around the block and padding boundaries (55/56, 63/64/65, 119/120 bytes).
const LENGTHS = [0, 1, 55, 56, 63, 64, 65, 119, 120, 200, 1000]

describe('SHA-256 and HMAC without a promise', () => {
  it('hash ASCII and non-ASCII text as node:crypto does, at every padding boundary', () => {
    for (const n of LENGTHS) {
      for (const text of ['a'.repeat(n), 'é'.repeat(n), `${'x'.repeat(n)}٣`]) {
        expect(sha256HexOf(text)).toBe(createHash('sha256').update(text).digest('hex'))
      }
    }
  })

  it('sign as node:crypto does with short, block-sized and long keys, and keep no state between calls', () => {
    for (const key of ['k', 'k'.repeat(64), 'k'.repeat(100)]) {
      const sign = hmacSha256(key)
      for (const n of LENGTHS) {
        const text = 'm'.repeat(n)
        const expected = createHmac('sha256', key).update(text).digest('hex')
        expect(hex(sign(text))).toBe(expected)
        expect(hex(sign(text))).toBe(expected)
      }
    }
  })
})
