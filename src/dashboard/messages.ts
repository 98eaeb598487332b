/**
 * The dashboard's translator in Arabic, French and English (the words are in messages-*.ts), for
 * Node; the Worker reads the same tables from its static assets (words.ts).
 */
import type { Language } from '../config.js'
import { type Translate, translator } from '../lib/translate.js'
import { ar } from './messages-ar.js'
import { type DashKey, type DashMessages, en } from './messages-en.js'
import { fr } from './messages-fr.js'

export { PROBLEM_MESSAGES } from './problem-messages.js'
export type { DashKey, DashMessages }
export { en }

/** A dashboard translator: `t('errAtMost', { max: 200 })`. */
export type DashTranslate = Translate<DashKey>

/** The three tables (the Worker's build writes them to its static assets). */
export const DASH_TABLES: Readonly<Record<Language, DashMessages>> = { en, fr, ar }

const TRANSLATORS: Record<Language, DashTranslate> = {
  en: translator(en),
  fr: translator(fr),
  ar: translator(ar),
}

/** The dashboard translator for a language; unknown `{placeholders}` are left as they are. */
export function dashTranslator(lang: Language): DashTranslate {
  return TRANSLATORS[lang]
}
