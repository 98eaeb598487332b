/**
 * The customer's checkout form: name, phone, e-mail, the amount of an open link, the terms box.
 * Errors come back as message keys so the page shows them in its own language.
 */

import { cardParamsSchema } from '../client/index.js'
import type { MessageKey } from '../i18n/index.js'
import { parseDzd } from '../lib/money.js'
import { MAX_AMOUNT, MIN_AMOUNT } from './amount-bounds.js'
import { isCleanText } from './clean-text.js'

export interface CheckoutInput {
  name: string
  phone: string
  email: string
  /** Centimes; set for open-amount links only. */
  amount: number | null
  ref: string | null
}

export type CheckoutField = 'name' | 'phone' | 'email' | 'amount' | 'terms' | 'ref'
export type CheckoutErrors = Partial<
  Record<CheckoutField, { key: MessageKey; params?: Record<string, number> }>
>

/**
 * The bounds of an open amount in centimes, as the link stores them. The card network's minimum
 * and the ceiling of link creation apply on top: a link without a maximum (or one stored outside
 * those limits) still takes nothing under MIN_AMOUNT or over MAX_AMOUNT.
 */
export interface AmountBounds {
  open: boolean
  min: number
  max: number | null
  /** The stored amount of a link that is not open: refused when outside the same limits. */
  fixed?: number | null
}

const EMAIL = /^[^\s@<>()[\]\\,;:"]{1,64}@[^\s@<>()[\]\\,;:"]+\.[^\s@<>()[\]\\,;:"]{2,}$/

// The gateway client's own rule: an address it would refuse must be refused here, by its field,
// not after a payment row exists as a gateway error.
const GATEWAY_EMAIL = cardParamsSchema.shape.email

/** A customer's name as the form takes it (spaces collapsed): 2 to 100 characters, no `<` `>`. */
export function isCustomerName(name: string): boolean {
  return name.length >= 2 && name.length <= 100 && !/[<>]/.test(name)
}

/** An e-mail address (lower case) the form and the gateway both take. */
export function isCustomerEmail(email: string): boolean {
  return email.length <= 254 && EMAIL.test(email) && GATEWAY_EMAIL.safeParse(email).success
}

/** Normalises an Algerian phone number: `0XXXXXXXXX`/`0XXXXXXXX` or international `+213…`. */
export function normalisePhone(raw: string): string | null {
  const compact = raw.replace(/[\s.\-()]/g, '')
  const international = /^(?:\+|00)213(\d{8,9})$/.exec(compact)
  if (international) return `+213${international[1]}`
  if (/^0[5-7]\d{8}$/.test(compact) || /^0[2-4]\d{7}$/.test(compact)) return compact
  if (/^\+\d{8,15}$/.test(compact)) return compact
  return null
}

const text = (value: unknown) => (typeof value === 'string' ? value.trim() : '')

/**
 * Western digits for the Arabic-Indic (٠-٩) and Persian (۰-۹) ones an Arabic or Persian phone
 * keyboard types, and the Arabic decimal (٫) and thousands (٬) separators as `,` and a space.
 */
export function westernDigits(raw: string): string {
  return raw.replace(/[\u0660-\u0669\u06f0-\u06f9\u066b\u066c]/g, (ch) => {
    const code = ch.charCodeAt(0)
    if (code === 0x066b) return ','
    if (code === 0x066c) return ' '
    return String(code - (code >= 0x06f0 ? 0x06f0 : 0x0660))
  })
}

/**
 * An amount as the customer typed it, read the one way every typed amount is (the open amount, a
 * deposit's part, the order summary's): Western digits, spaces and thousands separators dropped,
 * the first `,` as the decimal mark. Empty when nothing was typed; parseDzd reads the rest.
 */
export function typedAmountText(raw: string): string {
  return westernDigits(raw).replace(/\s/g, '').replace(',', '.')
}

/** The fields of the form that carry text the customer (or the link's prefill) wrote. */
const TEXT_FIELDS = ['name', 'phone', 'email', 'amount', 'ref'] as const

const withinLimits = (centimes: number) =>
  Number.isSafeInteger(centimes) && centimes >= MIN_AMOUNT && centimes <= MAX_AMOUNT

/** Validates the posted form. Never throws; unknown fields are ignored. */
export function parseCheckoutForm(
  form: Record<string, unknown>,
  bounds: AmountBounds,
): { ok: true; value: CheckoutInput } | { ok: false; errors: CheckoutErrors } {
  const errors: CheckoutErrors = {}
  // Control characters and invalid UTF-8 are refused first; a field's own rules (`??=` below)
  // then speak only of a field that is clean text.
  for (const field of TEXT_FIELDS) {
    if (field === 'amount' && !bounds.open) continue // a fixed link's form has no amount to read
    if (!isCleanText(text(form[field])))
      errors[field] = { key: field === 'ref' ? 'errRefText' : 'errText' }
  }
  const name = text(form.name).replace(/\s+/g, ' ')
  if (name.length === 0) errors.name ??= { key: 'errRequired' }
  else if (!isCustomerName(name)) errors.name ??= { key: 'errName' }

  const phoneRaw = westernDigits(text(form.phone))
  const phone = normalisePhone(phoneRaw)
  if (phoneRaw.length === 0) errors.phone ??= { key: 'errRequired' }
  else if (!phone) errors.phone ??= { key: 'errPhone' }

  const email = text(form.email).toLowerCase()
  if (email.length === 0) errors.email ??= { key: 'errRequired' }
  else if (!isCustomerEmail(email)) errors.email ??= { key: 'errEmail' }

  let amount: number | null = null
  if (bounds.open) {
    const amountRaw = typedAmountText(text(form.amount))
    amount = amountRaw.length === 0 ? null : parseDzd(amountRaw)
    const min = Math.max(bounds.min, MIN_AMOUNT)
    const max = Math.min(bounds.max ?? MAX_AMOUNT, MAX_AMOUNT)
    if (amountRaw.length === 0) errors.amount ??= { key: 'errRequired' }
    else if (amount === null) errors.amount ??= { key: 'errAmount' }
    else if (amount < min && bounds.max === null)
      errors.amount ??= { key: 'errAmountMin', params: { min } }
    else if (amount < min || amount > max)
      errors.amount ??= { key: 'errAmountRange', params: { min, max } }
  }

  // A fixed amount is the merchant's, checked at creation; one stored by other means is not sent.
  const fixed = bounds.fixed
  if (!bounds.open && fixed != null && !withinLimits(fixed))
    errors.amount = { key: 'errAmountRange', params: { min: MIN_AMOUNT, max: MAX_AMOUNT } }

  const terms = form.terms
  if (terms !== 'yes' && terms !== 'on' && terms !== 'true') errors.terms = { key: 'errTerms' }

  const ref = text(form.ref).slice(0, 100) || null
  if (Object.keys(errors).length > 0) return { ok: false, errors }
  return { ok: true, value: { name, phone: phone!, email, amount, ref } }
}
