/**
 * The dashboard's promo code form: what the browser posts (all text), how a stored code fills it,
 * and how it maps onto the create/update body of the merchant API, so both go through the same
 * rules. Amounts are read from decimal text into centimes and sent as DZD; the expiry is Algiers
 * time, sent with its offset.
 */
import type { PromoCode } from '../../db/schema.js'
import type { PromoCodeFormValues } from '../../views/dashboard/promo-codes-page.js'
import { parseAlgiersDateTime, toAlgiersDateTimeInput } from '../domain/algiers-time.js'
import type { FieldProblems } from '../domain/problems.js'
import { storedDzdText } from '../domain/stored-amount.js'
import { centimesToDzdNumber } from '../lib/money.js'
import { type FormProblems, readAmountText } from './link-form.js'
import { PROBLEM_MESSAGES } from './problem-messages.js'

export type PromoCodeForm = PromoCodeFormValues

const FIELDS = [
  'code',
  'kind',
  'percent_off',
  'amount_off',
  'min_amount',
  'max_redemptions',
  'expires_at',
] as const

/** Reads the posted form; anything missing or not text becomes an empty string. */
export function readPromoCodeForm(form: Record<string, unknown>): PromoCodeForm {
  const text = (v: unknown) => (typeof v === 'string' ? v.slice(0, 1_000) : '')
  const out = Object.fromEntries(FIELDS.map((k) => [k, text(form[k])])) as PromoCodeForm
  out.kind = out.kind === 'amount' ? 'amount' : 'percent'
  return out
}

/** An empty form for a new code. */
export const newPromoCodeForm = (): PromoCodeForm => ({
  code: '',
  kind: 'percent',
  percent_off: '',
  amount_off: '',
  min_amount: '',
  max_redemptions: '',
  expires_at: '',
})

/** The form a stored code shows in its page. */
export function promoCodeToForm(row: PromoCode): PromoCodeForm {
  const dzd = (c: number | null) => (c === null ? '' : storedDzdText(c))
  return {
    code: row.code,
    kind: row.amountOff !== null ? 'amount' : 'percent',
    percent_off: row.percentOff === null ? '' : String(row.percentOff),
    amount_off: dzd(row.amountOff),
    min_amount: dzd(row.minAmount),
    max_redemptions: row.maxRedemptions === null ? '' : String(row.maxRedemptions),
    expires_at: row.expiresAt === null ? '' : toAlgiersDateTimeInput(row.expiresAt),
  }
}

/**
 * Maps the form to the body of src/promo-codes/service.ts: the chosen kind of discount and null
 * for the other, and the problems found before the body's rules run (text that is not a number).
 */
export function promoCodeFormToBody(form: PromoCodeForm): {
  body: Record<string, unknown>
  problems: FormProblems
} {
  const problems: FormProblems = {}
  const amount = (field: 'amount_off' | 'min_amount', required: boolean) => {
    const text = form[field].trim()
    if (text === '') {
      if (required) problems[field] = { key: 'errRequired' }
      return null
    }
    const centimes = readAmountText(text)
    if (centimes === null) problems[field] = { key: 'errAmountText' }
    return centimes === null ? null : centimesToDzdNumber(centimes)
  }
  const whole = (field: 'percent_off' | 'max_redemptions', required: boolean) => {
    const text = form[field].trim()
    if (text === '') {
      if (required) problems[field] = { key: 'errRequired' }
      return null
    }
    if (!/^\d{1,10}$/.test(text)) problems[field] = { key: 'errWhole' }
    return problems[field] ? null : Number(text)
  }
  const percent = form.kind === 'percent'
  const body: Record<string, unknown> = {
    code: form.code,
    // A value already refused is sent as a valid one, so only the other fields' rules speak.
    percent_off: percent ? (whole('percent_off', true) ?? (problems.percent_off ? 1 : null)) : null,
    amount_off: percent ? null : (amount('amount_off', true) ?? (problems.amount_off ? 1 : null)),
    min_amount: amount('min_amount', false),
    max_redemptions: whole('max_redemptions', false),
  }
  const expires = form.expires_at.trim()
  const at = expires === '' ? null : parseAlgiersDateTime(expires)
  if (expires !== '' && at === null) problems.expires_at = { key: 'errDateTime' }
  body.expires_at = at === null ? null : new Date(at).toISOString()
  return { body, problems }
}

/** The rules' problems beside the form's fields, in the dashboard's own messages. */
export function placePromoCodeProblems(problems: FieldProblems): FormProblems {
  const out: FormProblems = {}
  for (const [field, problem] of Object.entries(problems)) {
    out[field] = problem.params
      ? { key: PROBLEM_MESSAGES[problem.code], params: problem.params }
      : { key: PROBLEM_MESSAGES[problem.code] }
  }
  return out
}
