/** Languages, messages and the formatting of amounts and dates per language. */

import { LANGUAGES, type Language } from '../config.js'
import { storedCentimes } from '../domain/stored-amount.js'
import { isShowableTime } from '../domain/stored-time.js'
import type { Centimes } from '../lib/money.js'
import { type Translate as TranslateKey, translator as tableTranslator } from '../lib/translate.js'
import { ar } from './ar.js'
import { en, type MessageKey, type Messages } from './en.js'
import { fr } from './fr.js'

export type { MessageKey, Messages }
export const MESSAGES: Record<Language, Messages> = { ar, fr, en }
const LOCALES: Record<Language, string> = { ar: 'ar-DZ', fr: 'fr-DZ', en: 'en-GB' }

/** A translator for one language: `t('payWith', { amount: '1 500,00 DA' })`. */
export type Translate = TranslateKey<MessageKey>

const TRANSLATORS: Record<Language, Translate> = {
  ar: tableTranslator(ar),
  fr: tableTranslator(fr),
  en: tableTranslator(en),
}

/** Returns the translator for a language. Unknown `{placeholders}` are left as they are. */
export function translator(lang: Language): Translate {
  return TRANSLATORS[lang]
}

/** True when the value is one of the supported languages. */
export function isLanguage(value: unknown): value is Language {
  return (LANGUAGES as readonly unknown[]).includes(value)
}

/**
 * Picks the page language: the customer's `?lang=` (the switcher), then the link's own, then the
 * browser's Accept-Language, then the configured default. See docs/decisions/page-language.md.
 */
export function pickLanguage(options: {
  link?: string | null
  query?: string | null
  acceptLanguage?: string | null
  fallback: Language
}): Language {
  if (isLanguage(options.query)) return options.query
  if (isLanguage(options.link)) return options.link
  for (const part of (options.acceptLanguage ?? '').split(',')) {
    const tag = part.split(';')[0]?.trim().slice(0, 2).toLowerCase()
    if (isLanguage(tag)) return tag
  }
  return options.fallback
}

/**
 * One Intl formatter (or any value made for a locale) per language, made when first asked for.
 * They are immutable, so one each is enough; and the first of a kind loads its locale's data
 * (milliseconds, where the next costs tens of microseconds), which a start should not pay for
 * pages no one has asked for yet.
 */
export function perLanguage<T>(make: (locale: string) => T): (lang: Language) => T {
  const made: Partial<Record<Language, T>> = {}
  return (lang) => (made[lang] ??= make(LOCALES[lang]))
}
const NUMBER_FORMATS = perLanguage(
  (locale) => new Intl.NumberFormat(locale, { numberingSystem: 'latn', useGrouping: true }),
)
const DATE_FORMATS = perLanguage(
  (locale) =>
    new Intl.DateTimeFormat(locale, {
      timeZone: 'Africa/Algiers',
      dateStyle: 'long',
      timeStyle: 'short',
      hourCycle: 'h23',
      numberingSystem: 'latn',
    }),
)

/**
 * Formats centimes with two decimals and the currency per language, without floating point:
 * the whole dinars go through Intl for grouping, the centimes are appended as text. Any stored
 * value formats without throwing (see stored-amount.ts); one that is not a number shows as "—".
 */
export function formatAmount(centimes: Centimes | bigint, lang: Language): string {
  const value = storedCentimes(centimes)
  if (value === null) return '—'
  const abs = value < 0n ? -value : value
  const cents = String(abs % 100n).padStart(2, '0')
  const grouped = NUMBER_FORMATS(lang).format(abs / 100n)
  const decimal = lang === 'en' ? '.' : ','
  const number = `${value < 0n ? '-' : ''}${grouped}${decimal}${cents}`
  // A no-break space keeps the amount and its currency on one line.
  return lang === 'ar' ? `${number}\u00a0${MESSAGES.ar.currency}` : `${number}\u00a0DA`
}

/** Formats a time in Africa/Algiers for the language. */
export function formatDateTime(ms: number, lang: Language): string {
  return isShowableTime(ms) ? DATE_FORMATS(lang).format(new Date(ms)) : '—'
}

/**
 * Which form of a counted phrase reads right after the number `n`: its key ends in the form's name
 * (`tillReportSalesOne` … `tillReportSalesMany`). English says one for 1; French for 0 and 1;
 * Arabic counts in four forms, as formatMinutes does: one, two, three to ten (with the hundreds
 * that end so: 103) and the rest, the number then the noun in the singular (11, 100, 0). English
 * and French give the same words to Two, Few and Many.
 */
export type CountForm = 'One' | 'Two' | 'Few' | 'Many'

export function countForm(n: number, lang: Language): CountForm {
  if (lang === 'fr') return n < 2 ? 'One' : 'Many'
  if (lang === 'en') return n === 1 ? 'One' : 'Many'
  if (n === 1) return 'One'
  if (n === 2) return 'Two'
  return n % 100 >= 3 && n % 100 <= 10 ? 'Few' : 'Many'
}

/**
 * "n minutes" as it reads after "in" / "dans" / "بعد". Arabic counts in four forms (one, two,
 * three to ten, eleven and more) and takes the genitive after بعد, which Intl does not give.
 */
export function formatMinutes(minutes: number, lang: Language): string {
  const n = Math.max(1, Math.round(minutes))
  if (lang === 'ar') {
    if (n === 1) return 'دقيقة واحدة'
    if (n === 2) return 'دقيقتين'
    return n <= 10 ? `${n} دقائق` : `${n} دقيقة`
  }
  return n === 1 ? '1 minute' : `${n} minutes`
}
