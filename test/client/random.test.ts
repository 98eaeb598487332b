import { describe, expect, it } from 'vitest'
import { randomBase62, randomBytes } from '../../src/lib/bytes.js'

describe('randomBytes (pooled for small draws)', () => {
  it('never hands out the same bytes twice, across many pool refills', () => {
    const seen = new Set<string>()
    for (let i = 0; i < 20_000; i++) seen.add(Buffer.from(randomBytes(16)).toString('hex'))
    expect(seen.size).toBe(20_000)
  })

  it('gives draws of odd sizes that straddle a refill, and large draws, with no zeroed runs', () => {
    for (const size of [1, 7, 100, 255, 256, 257, 5000]) {
      for (let i = 0; i < 200; i++) {
        const bytes = randomBytes(size)
        expect(bytes.length).toBe(size)
        // A wiped (already handed out) stretch of the pool would show as a run of zeros.
        if (size >= 16) expect(Buffer.from(bytes).includes(Buffer.alloc(16))).toBe(false)
      }
    }
  })

  it('spreads byte values evenly (chi-square over 256 values)', () => {
    const counts = new Array<number>(256).fill(0)
    const draws = 4000
    for (let i = 0; i < draws; i++)
      for (const b of randomBytes(32)) counts[b] = (counts[b] ?? 0) + 1
    const expected = (draws * 32) / 256
    const chi = counts.reduce((sum, n) => sum + (n - expected) ** 2 / expected, 0)
    // 255 degrees of freedom: the 99.99th percentile is about 360.
    expect(chi).toBeLessThan(360)
  })

  it('base62 strings are the asked length and all different', () => {
    const ids = Array.from({ length: 5000 }, () => randomBase62(12))
    expect(ids.every((id) => /^[0-9A-Za-z]{12}$/.test(id))).toBe(true)
    expect(new Set(ids).size).toBe(5000)
  })
})
