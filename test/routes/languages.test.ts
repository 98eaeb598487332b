/**
 * The languages the customer pages speak, without a browser: every message exists in ar, fr and
 * en with the same placeholders, the page language rule, amounts with two decimals and the
 * currency, dates in Africa/Algiers, and minutes counted the Arabic way.
 */
import { describe, expect, it } from 'vitest'
import { DASH_TABLES } from '../../src/dashboard/messages.js'
import {
  formatAmount,
  formatDateTime,
  formatMinutes,
  MESSAGES,
  type MessageKey,
  pickLanguage,
} from '../../src/i18n/index.js'
import { TERMS_TEXTS } from '../../src/i18n/terms.js'
import { WORDS } from '../../src/simulator/views/i18n.js'

const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort()

describe('messages', () => {
  const keys = Object.keys(MESSAGES.en) as MessageKey[]

  // A Latin name in a right-to-left line is reordered unless isolated: "D Secure-3" was read.
  it('isolates "3-D Secure" left-to-right wherever Arabic text names it', () => {
    const arabic = [MESSAGES.ar, DASH_TABLES.ar, TERMS_TEXTS.ar, WORDS.ar].flatMap((table) =>
      Object.entries(table),
    )
    const named = arabic.filter(([, text]) => text.includes('3-D Secure'))
    expect(named.length).toBeGreaterThan(2)
    for (const [key, text] of named)
      expect(text.replaceAll('\u20663-D Secure\u2069', ''), key).not.toContain('3-D Secure')
  })

  // French typography: "Journal d'audit" read with a typewriter's apostrophe beside the others'.
  it('writes French with the typographic apostrophe, on the customer pages and the dashboard', () => {
    for (const [key, text] of [...Object.entries(MESSAGES.fr), ...Object.entries(DASH_TABLES.fr)])
      expect(text, key).not.toMatch(/\p{L}'\p{L}/u)
  })

  it.each(['ar', 'fr'] as const)(
    'gives every %s message the placeholders of the English one',
    (lang) => {
      for (const key of keys) {
        expect(placeholders(MESSAGES[lang][key]), key).toEqual(placeholders(MESSAGES.en[key]))
        expect(MESSAGES[lang][key].trim(), key).not.toBe('')
      }
    },
  )

  it('writes Arabic right to left and translates the required 3020 line', () => {
    expect(MESSAGES.ar.dir).toBe('rtl')
    expect(MESSAGES.fr.dir).toBe('ltr')
    for (const lang of ['ar', 'fr', 'en'] as const) expect(MESSAGES[lang].support).toContain('3020')
    expect(MESSAGES.ar.support).not.toBe(MESSAGES.en.support)
  })
})

describe('the page language', () => {
  const pick = (o: { query?: string; link?: string; accept?: string }) =>
    pickLanguage({ query: o.query, link: o.link, acceptLanguage: o.accept, fallback: 'fr' })

  it("prefers the customer's ?lang= to the link's language", () => {
    expect(pick({ query: 'ar', link: 'fr', accept: 'en' })).toBe('ar')
  })

  it("prefers the link's language to the browser's", () => {
    expect(pick({ link: 'en', accept: 'ar-DZ,ar;q=0.9' })).toBe('en')
  })

  it('takes the first supported browser language, then the default', () => {
    expect(pick({ accept: 'de-DE,de;q=0.9,ar;q=0.8' })).toBe('ar')
    expect(pick({ accept: 'de-DE' })).toBe('fr')
    expect(pick({ query: 'xx', link: 'yy' })).toBe('fr')
  })
})

describe('amounts and dates', () => {
  it('formats centimes with two decimals and the currency in each language', () => {
    expect(formatAmount(150000, 'en')).toBe('1,500.00\u00a0DA')
    expect(formatAmount(150000, 'fr')).toBe('1\u202f500,00\u00a0DA')
    expect(formatAmount(150000, 'ar')).toBe('1.500,00\u00a0دج')
    expect(formatAmount(5, 'en')).toBe('0.05\u00a0DA')
    expect(formatAmount(123456789, 'fr')).toBe('1\u202f234\u202f567,89\u00a0DA')
  })

  it('shows times in Africa/Algiers whatever the server clock zone', () => {
    const lateEveningUtc = Date.UTC(2026, 0, 5, 23, 30)
    expect(formatDateTime(lateEveningUtc, 'fr')).toBe('6 janvier 2026 à 00:30')
    expect(formatDateTime(lateEveningUtc, 'en')).toBe('6 January 2026 at 00:30')
    expect(formatDateTime(lateEveningUtc, 'ar')).toBe('6 جانفي 2026 في 00:30')
  })

  it('counts minutes with the Arabic dual and plural forms', () => {
    expect([1, 2, 3, 10, 11, 20].map((n) => formatMinutes(n, 'ar'))).toEqual([
      'دقيقة واحدة',
      'دقيقتين',
      '3 دقائق',
      '10 دقائق',
      '11 دقيقة',
      '20 دقيقة',
    ])
    expect(formatMinutes(1, 'fr')).toBe('1 minute')
    expect(formatMinutes(20, 'en')).toBe('20 minutes')
  })
})
