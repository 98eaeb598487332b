/**
 * A link's custom fields: the questions a merchant asks the customer (a text, a number, a choice,
 * the wilaya to deliver to, an address), their rules as the API and the dashboard take them, and
 * the customer's answers as the checkout form posts them (`cf_<key>`). Answers are stored as text
 * (`payments.custom_fields`, key → value): a number normalised (`1500.5`), a wilaya by its code.
 */
import type { Language } from '../../db/schema.js'
import type { MessageKey } from '../i18n/index.js'
import { westernDigits } from './checkout-input.js'
import { isCleanText } from './clean-text.js'
import type { CustomField, CustomFieldType, CustomFieldValues } from './order.js'
import type { Problem } from './problems.js'
import { wilayaByCode, wilayaLabel } from './wilayas.js'

/** The most fields a link asks. */
export const MAX_CUSTOM_FIELDS = 5
/** A field's key: what names its answer in the payment, the form (`cf_<key>`), the CSV. */
export const FIELD_KEY = /^[a-z0-9_]{1,40}$/
export const LABEL_MAX = 80
/** A select's choices: how many, and how long each. */
export const MAX_OPTIONS = 20
export const OPTION_MAX = 80
/** The longest answer of the types typed freely (a number's digits are bounded by its pattern). */
export const ANSWER_MAX = { text: 200, address: 300 } as const

/** The form field of a custom field's answer. */
export const answerName = (key: string) => `cf_${key}`

/** A problem of one definition: which one (its index), which of its fields, and the problem. */
export type DefinitionProblem = { index: number; field: 'key' | 'options'; problem: Problem }

/**
 * The rules that span a definition's fields or the list, once each definition is well formed
 * (its key's pattern, its label, its options' lengths: the API's schema): keys unique, options
 * given for a select only, and distinct. The API names them `custom_fields[1].options`.
 */
export function definitionProblems(fields: readonly CustomField[]): DefinitionProblem[] {
  const problems: DefinitionProblem[] = []
  const seen = new Set<string>()
  fields.forEach((field, index) => {
    if (seen.has(field.key))
      problems.push({ index, field: 'key', problem: { code: 'duplicate_key' } })
    seen.add(field.key)
    const options = field.options ?? []
    const code =
      field.type === 'select' && options.length === 0
        ? 'options_required'
        : field.type !== 'select' && options.length > 0
          ? 'options_only_for_select'
          : new Set(options).size !== options.length
            ? 'duplicate_option'
            : null
    if (code) problems.push({ index, field: 'options', problem: { code } })
  })
  return problems
}

/** One refused answer, by the page's message key (a count goes as text: numbers are amounts). */
export type AnswerError = { key: MessageKey; params?: Record<string, string | number> }

// A decimal number as a person types it once spaces are gone: sign, digits, one decimal mark.
const NUMBER = /^([+-]?)(\d{1,15})(?:[.,](\d{1,6}))?$/

/** `1 500,50` → `1500.5`, `007` → `7`, `-0` → `0`; null when it is not a decimal number. */
export function normaliseNumber(raw: string): string | null {
  const m = NUMBER.exec(westernDigits(raw).replace(/[\s\u00a0\u202f]/g, ''))
  if (!m) return null
  const whole = m[2]!.replace(/^0+(?=\d)/, '')
  const fraction = (m[3] ?? '').replace(/0+$/, '')
  const digits = fraction === '' ? whole : `${whole}.${fraction}`
  return m[1] === '-' && /[1-9]/.test(digits) ? `-${digits}` : digits
}

/** A wilaya typed or prefilled as `16` or `1`: its two-digit code, or null. */
function wilayaCode(raw: string): string | null {
  const digits = westernDigits(raw)
  if (!/^\d{1,2}$/.test(digits)) return null
  const code = digits.padStart(2, '0')
  return wilayaByCode(code) ? code : null
}

/** One answer read: its stored text, or why it is refused; '' when the customer left it empty. */
function readAnswer(field: CustomField, raw: string): { value: string } | { error: AnswerError } {
  const multiline = field.type === 'address'
  if (!isCleanText(raw, { multiline })) return { error: { key: 'errText' } }
  // Line breaks as one kind, so the stored text and its length do not depend on the browser.
  const text = (multiline ? raw.replace(/\r\n?/g, '\n') : raw).trim()
  if (text === '') return { value: '' }
  switch (field.type) {
    case 'text':
    case 'address': {
      const max = ANSWER_MAX[field.type]
      if ([...text].length > max)
        return { error: { key: 'errFieldTooLong', params: { max: String(max) } } }
      return { value: text }
    }
    case 'number': {
      const value = normaliseNumber(text)
      return value === null ? { error: { key: 'errFieldNumber' } } : { value }
    }
    case 'select':
      return (field.options ?? []).includes(text)
        ? { value: text }
        : { error: { key: 'errFieldChoice' } }
    case 'wilaya': {
      const code = wilayaCode(text)
      return code === null ? { error: { key: 'errFieldWilaya' } } : { value: code }
    }
  }
}

/**
 * The customer's answers to a link's fields from the posted form (`cf_<key>`): only the answered
 * keys, in the link's order; null when the link asks nothing or nothing was answered. A refused
 * or missing required answer is added to `errors` under its form name; `cf_` names the link does
 * not ask are ignored.
 */
export function readCustomFieldAnswers(
  fields: readonly CustomField[] | null,
  form: Record<string, unknown>,
  errors: Record<string, AnswerError>,
): CustomFieldValues | null {
  if (!fields || fields.length === 0) return null
  const values: CustomFieldValues = {}
  for (const field of fields) {
    const name = answerName(field.key)
    const posted = form[name]
    const read = readAnswer(field, typeof posted === 'string' ? posted : '')
    if ('error' in read) errors[name] = read.error
    else if (read.value !== '') values[field.key] = read.value
    else if (field.required) errors[name] = { key: 'errRequired' }
  }
  return Object.keys(values).length > 0 ? values : null
}

/** The `cf_*` values of a form or a query, as the page shows them back (each cut short). */
export function answerValues(source: Record<string, unknown>): Record<`cf_${string}`, string> {
  const out: Record<`cf_${string}`, string> = {}
  for (const [name, value] of Object.entries(source)) {
    if (typeof value === 'string' && /^cf_[a-z0-9_]{1,40}$/.test(name))
      out[name as `cf_${string}`] = value.slice(0, 400)
  }
  return out
}

/**
 * An answer on one line, as a receipt, the payment's page and the export show it: a wilaya as
 * "16 — Alger" in `lang`, an address's lines joined by commas.
 */
export function answerText(type: CustomFieldType | null, value: string, lang: Language): string {
  return type === 'wilaya' ? wilayaLabel(value, lang) : value.replace(/\s*[\r\n]+\s*/g, ', ')
}

/** One answered field of a payment, as its receipt and its dashboard page list it. */
export type CustomFieldAnswer = {
  key: string
  label: string
  type: CustomFieldType | null
  value: string
}

/**
 * A payment's answers with the link's labels, in the link's order; a key the link no longer
 * asks (the merchant changed its fields since) keeps its answer, labelled by its key.
 */
export function answersOf(
  fields: readonly CustomField[] | null | undefined,
  values: CustomFieldValues | null | undefined,
): CustomFieldAnswer[] {
  if (!values) return []
  const out: CustomFieldAnswer[] = []
  const asked = new Set<string>()
  for (const field of fields ?? []) {
    asked.add(field.key)
    const value = values[field.key]
    if (typeof value === 'string')
      out.push({ key: field.key, label: field.label, type: field.type, value })
  }
  for (const [key, value] of Object.entries(values)) {
    if (!asked.has(key) && typeof value === 'string')
      out.push({ key, label: key, type: null, value })
  }
  return out
}

/**
 * A payment's answers on one line, for the CSV: `wilaya=16 — Alger; address=…` (a wilaya's code
 * then its name in `lang`; an address's lines joined by commas, so a row stays one line).
 */
export function answersLine(
  values: CustomFieldValues | null | undefined,
  fields: readonly CustomField[] | null | undefined,
  lang: Language,
): string {
  return answersOf(fields, values)
    .map((a) => `${a.key}=${answerText(a.type, a.value, lang)}`)
    .join('; ')
}
