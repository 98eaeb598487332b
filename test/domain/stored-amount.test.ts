import { describe, expect, it } from 'vitest'
import { storedCentimes, storedDzdNumber, storedDzdText } from '../../src/domain/stored-amount.js'
import { formatAmount } from '../../src/i18n/index.js'
import { centimesToDzd, centimesToDzdShort } from '../../src/lib/money.js'

// 2^63 - 1 as SQLite stores it, and as better-sqlite3 hands it back (the nearest double).
const INT64_MAX = 9223372036854775807n
const INT64_MAX_READ = Number(INT64_MAX)

describe('centimesToDzd', () => {
  it('formats every whole number exactly, past 2^53 and as a bigint', () => {
    expect(centimesToDzd(0)).toBe('0.00')
    expect(centimesToDzd(-5)).toBe('-0.05')
    expect(centimesToDzd(Number.MAX_SAFE_INTEGER)).toBe('90071992547409.91')
    expect(centimesToDzd(INT64_MAX_READ)).toBe('92233720368547758.08')
    expect(centimesToDzd(INT64_MAX)).toBe('92233720368547758.07')
    expect(centimesToDzd(-INT64_MAX - 1n)).toBe('-92233720368547758.08')
    expect(centimesToDzdShort(1e21)).toBe('10000000000000000000')
  })

  it('still refuses what is not a whole number of centimes', () => {
    for (const bad of [1.5, Number.NaN, Number.POSITIVE_INFINITY])
      expect(() => centimesToDzd(bad)).toThrow(RangeError)
  })
})

describe('formatAmount', () => {
  it('never throws on a stored value, whatever SQLite held', () => {
    expect(formatAmount(INT64_MAX_READ, 'en')).toBe('92,233,720,368,547,758.08\u00a0DA')
    expect(formatAmount(-INT64_MAX_READ, 'fr')).toMatch(/^-92\s233\s720\s368\s547\s758,08\u00a0DA$/)
    expect(formatAmount(0, 'ar')).toMatch(/^0,00\u00a0/)
    expect(formatAmount(1e300, 'en')).toMatch(/^10,000,000,000,/)
    expect(formatAmount(12.6, 'en')).toBe('0.13\u00a0DA')
    for (const odd of [Number.NaN, Number.POSITIVE_INFINITY, 'abc', null, {}, new Uint8Array(1)])
      expect(formatAmount(odd as never, 'en')).toBe('—')
  })

  it('formats ordinary amounts as before', () => {
    expect(formatAmount(129950, 'en')).toBe('1,299.50\u00a0DA')
  })
})

describe('the stored amount readers', () => {
  it('give exact text and a JSON number, and "unknown" for a value that is not a number', () => {
    expect(storedCentimes(INT64_MAX_READ)).toBe(9223372036854775808n)
    expect(storedDzdText(INT64_MAX_READ)).toBe('92233720368547758.08')
    expect(storedDzdText('abc')).toBe('')
    expect(storedDzdNumber(129950)).toBe(1299.5)
    expect(storedDzdNumber(INT64_MAX_READ)).toBe(Number('92233720368547758.08'))
    expect(JSON.stringify({ amount: storedDzdNumber('abc') })).toBe('{"amount":null}')
  })
})
