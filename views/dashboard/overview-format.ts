/** The overview's short dates, counts and percentages per language (Latin digits, as elsewhere). */
import type { Language } from '../../src/config.js'
import { perLanguage } from '../../src/i18n/index.js'

// The dates are Algiers calendar dates already: formatted as UTC, they stay the same day.
const SHORT_DATE = perLanguage(
  (locale) =>
    new Intl.DateTimeFormat(locale, {
      day: 'numeric',
      month: 'short',
      timeZone: 'UTC',
      numberingSystem: 'latn',
    }),
)
const DAY_DATE = perLanguage(
  (locale) =>
    new Intl.DateTimeFormat(locale, {
      weekday: 'short',
      day: 'numeric',
      month: 'short',
      timeZone: 'UTC',
      numberingSystem: 'latn',
    }),
)
const COUNT = perLanguage((locale) => new Intl.NumberFormat(locale, { numberingSystem: 'latn' }))
const PERCENT = perLanguage(
  (locale) =>
    new Intl.NumberFormat(locale, {
      style: 'percent',
      maximumFractionDigits: 1,
      numberingSystem: 'latn',
    }),
)

const utc = (date: string) => new Date(`${date}T00:00:00Z`)

/** `2026-01-15` → "15 Jan" / "15 janv." / "15 يناير". */
export function shortDate(date: string, lang: Language): string {
  return SHORT_DATE(lang).format(utc(date))
}

/** `2026-01-15` → "Thu 15 Jan", for the table's rows. */
export function dayDate(date: string, lang: Language): string {
  return DAY_DATE(lang).format(utc(date))
}

/** A count with the language's grouping. */
export function formatCount(n: number, lang: Language): string {
  return COUNT(lang).format(n)
}

/** A share (0…1) as a percentage with at most one decimal. */
export function formatPercent(share: number, lang: Language): string {
  return PERCENT(lang).format(share)
}
