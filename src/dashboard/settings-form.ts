/**
 * The settings page's form: its fields as typed, and their reading into what is stored. Problems
 * are codes per field, worded by the page in its language (settings-routes.tsx). An empty field
 * stores null: the environment's value (MERCHANT_NAME, MERCHANT_TERMS_URL, DEFAULT_LANGUAGE) applies.
 */
import type { Branding } from '../../db/schema.js'
import { LANGUAGES, type Language } from '../config.js'
import type { BrandingFields } from '../data/branding.js'
import { brandColorProblem } from '../domain/brand.js'
import { isCleanText } from '../domain/clean-text.js'
import { feePercentText, parseFeePercent, storedFeeHundredths } from '../domain/customer-fee.js'
import { TILL_LINK_MINUTES } from '../domain/till-sale.js'

export { TILL_LINK_MINUTES_KEY } from '../data/till.js'
export { CUSTOMER_FEE_PERCENT_KEY } from '../domain/customer-fee.js'
export { TILL_LINK_MINUTES }

export const SETTINGS_FIELDS = [
  'merchantName',
  'brandColor',
  'contactPhone',
  'contactEmail',
  'contactAddress',
  'termsUrl',
  'termsAr',
  'termsFr',
  'termsEn',
  'defaultLanguage',
  'receiptFooter',
  'tillLinkMinutes',
  'customerFeePercent',
] as const
export type SettingsField = (typeof SETTINGS_FIELDS)[number]

/** The form as typed (every field text). */
export type SettingsForm = Record<SettingsField, string>

export type SettingsProblem =
  | { code: 'too_long'; max: number }
  | { code: 'not_text' }
  | { code: 'color_format' }
  | { code: 'color_contrast' }
  | { code: 'phone' }
  | { code: 'email' }
  | { code: 'url' }
  | { code: 'language' }
  | { code: 'minutes'; min: number; max: number }
  | { code: 'fee_percent' }

/** The form's names on the wire (snake case, as the other dashboard forms). */
export const FORM_NAMES: Record<SettingsField, string> = {
  merchantName: 'merchant_name',
  brandColor: 'brand_color',
  contactPhone: 'contact_phone',
  contactEmail: 'contact_email',
  contactAddress: 'contact_address',
  termsUrl: 'terms_url',
  termsAr: 'terms_ar',
  termsFr: 'terms_fr',
  termsEn: 'terms_en',
  defaultLanguage: 'default_language',
  receiptFooter: 'receipt_footer',
  tillLinkMinutes: 'till_link_minutes',
  customerFeePercent: 'customer_fee_percent',
}

const LIMITS: Record<
  Exclude<SettingsField, 'tillLinkMinutes' | 'defaultLanguage' | 'customerFeePercent'>,
  number
> = {
  merchantName: 100,
  brandColor: 7,
  contactPhone: 30,
  contactEmail: 254,
  contactAddress: 500,
  termsUrl: 2000,
  termsAr: 20_000,
  termsFr: 20_000,
  termsEn: 20_000,
  receiptFooter: 500,
}

const MULTILINE = new Set<SettingsField>([
  'contactAddress',
  'termsAr',
  'termsFr',
  'termsEn',
  'receiptFooter',
])

/** The form as typed, from a posted body (what is not a string reads as empty). */
export function readSettingsForm(body: Record<string, unknown>): SettingsForm {
  const form = {} as SettingsForm
  for (const field of SETTINGS_FIELDS) {
    const value = body[FORM_NAMES[field]]
    form[field] = typeof value === 'string' ? value.slice(0, 25_000) : ''
  }
  return form
}

/**
 * The form showing what is stored (the till's minutes as stored, or the default; the customer's
 * fee as a percent, `0` when none).
 */
export function settingsToForm(
  row: Branding | null,
  tillMinutes: string | null,
  feeStored: string | null = null,
): SettingsForm {
  const form = {} as SettingsForm
  for (const field of SETTINGS_FIELDS) {
    if (field === 'tillLinkMinutes' || field === 'customerFeePercent') continue
    form[field] = (row?.[field] as string | null | undefined) ?? ''
  }
  form.tillLinkMinutes = tillMinutes ?? String(TILL_LINK_MINUTES.default)
  form.customerFeePercent = feePercentText(storedFeeHundredths(feeStored))
  return form
}

const PHONE = /^\+?[0-9][0-9 ().-]{3,28}[0-9]$/
const EMAIL = /^[^\s@<>()[\]\\,;:"]+@[^\s@<>()[\]\\,;:"]+\.[^\s@<>()[\]\\,;:"]+$/

function problemOf(field: SettingsField, value: string): SettingsProblem | null {
  if (field === 'tillLinkMinutes') {
    const n = /^\d{1,3}$/.test(value) ? Number(value) : Number.NaN
    return n >= TILL_LINK_MINUTES.min && n <= TILL_LINK_MINUTES.max
      ? null
      : { code: 'minutes', min: TILL_LINK_MINUTES.min, max: TILL_LINK_MINUTES.max }
  }
  if (field === 'customerFeePercent')
    return value === '' || parseFeePercent(value) !== null ? null : { code: 'fee_percent' }
  if (value === '') return null
  if (field === 'defaultLanguage')
    return (LANGUAGES as readonly string[]).includes(value) ? null : { code: 'language' }
  if (!isCleanText(value, { multiline: MULTILINE.has(field) })) return { code: 'not_text' }
  if (value.length > LIMITS[field]) return { code: 'too_long', max: LIMITS[field] }
  if (field === 'brandColor') {
    const problem = brandColorProblem(value)
    return problem === 'format'
      ? { code: 'color_format' }
      : problem
        ? { code: 'color_contrast' }
        : null
  }
  if (field === 'contactPhone') return PHONE.test(value) ? null : { code: 'phone' }
  if (field === 'contactEmail') return EMAIL.test(value) ? null : { code: 'email' }
  if (field === 'termsUrl') {
    try {
      const url = new URL(value)
      return url.protocol === 'https:' || url.protocol === 'http:' ? null : { code: 'url' }
    } catch {
      return { code: 'url' }
    }
  }
  return null
}

/** The stored values, or each field's problem. */
export function parseSettingsForm(typed: SettingsForm):
  | {
      ok: true
      branding: BrandingFields
      tillLinkMinutes: number
      /** The customer's fee in hundredths of a percent (an empty field: none). */
      customerFeeHundredths: number
    }
  | { ok: false; problems: Partial<Record<SettingsField, SettingsProblem>> } {
  const form = {} as SettingsForm
  for (const field of SETTINGS_FIELDS) {
    // Line breaks typed in a browser come as CRLF: stored as LF.
    const value = typed[field].replace(/\r\n?/g, '\n').trim()
    form[field] = field === 'brandColor' ? value.toLowerCase() : value
  }
  const problems: Partial<Record<SettingsField, SettingsProblem>> = {}
  for (const field of SETTINGS_FIELDS) {
    const problem = problemOf(field, form[field])
    if (problem) problems[field] = problem
  }
  if (Object.keys(problems).length > 0) return { ok: false, problems }
  const orNull = (v: string) => (v === '' ? null : v)
  return {
    ok: true,
    branding: {
      merchantName: orNull(form.merchantName),
      brandColor: orNull(form.brandColor),
      contactPhone: orNull(form.contactPhone),
      contactEmail: orNull(form.contactEmail),
      contactAddress: orNull(form.contactAddress),
      termsUrl: orNull(form.termsUrl),
      termsAr: orNull(form.termsAr),
      termsFr: orNull(form.termsFr),
      termsEn: orNull(form.termsEn),
      defaultLanguage: orNull(form.defaultLanguage) as Language | null,
      receiptFooter: orNull(form.receiptFooter),
    },
    tillLinkMinutes: Number(form.tillLinkMinutes),
    customerFeeHundredths:
      form.customerFeePercent === '' ? 0 : (parseFeePercent(form.customerFeePercent) ?? 0),
  }
}

/** The names of the fields whose stored value changes: what the audit log records, no values. */
export function changedFields(
  before: Branding | null,
  tillBefore: string | null,
  after: BrandingFields,
  tillAfter: number,
  fee: { before: string | null; after: number } = { before: null, after: 0 },
): SettingsField[] {
  const changed: SettingsField[] = []
  for (const field of SETTINGS_FIELDS) {
    if (field === 'customerFeePercent') {
      if (storedFeeHundredths(fee.before) !== fee.after) changed.push(field)
    } else if (field === 'tillLinkMinutes') {
      if ((tillBefore ?? String(TILL_LINK_MINUTES.default)) !== String(tillAfter))
        changed.push(field)
    } else if ((before?.[field] ?? null) !== after[field]) changed.push(field)
  }
  return changed
}
