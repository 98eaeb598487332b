/**
 * How the merchant API words each problem code, in English, after the field's path:
 * `{ amount_min: { code: 'amount_too_low', params: { min: 5000 } } }` becomes
 * `{ amount_min: 'amount_min must be at least 50 DZD' }`. Scripts branch on `error.code`; these
 * texts are for the person reading the answer, and the tests hold them to the letter.
 */
import { CLEAN_TEXT_RULE } from '../domain/clean-text.js'
import {
  AMOUNT_PROBLEMS,
  type FieldProblems,
  type Problem,
  type ProblemCode,
} from '../domain/problems.js'
import { centimesToDzdShort } from '../lib/money.js'
import { translator } from '../lib/translate.js'

const API_PROBLEMS: Record<ProblemCode, string> = {
  required: '{field} is required',
  invalid: '{field} is not valid',
  unknown_field: '{field} is not a field of {object}',
  not_object: '{field} must be a JSON object',
  not_text: '{field} must be text',
  empty: '{field} must not be empty',
  too_long: '{field} must be at most {max} characters',
  not_clean_text: `{field} ${CLEAN_TEXT_RULE}`,
  not_whole: '{field} must be a whole number',
  too_small: '{field} must be at least {min}',
  too_big: '{field} must be at most {max}',
  not_dzd: '{field} must be a number of DZD, e.g. 1500 or 1299.5',
  bad_dzd: '{field} must be an amount of DZD that is not negative and has at most two decimals',
  not_positive: '{field} must be more than 0 DZD',
  amount_too_low: '{field} must be at least {min} DZD',
  amount_too_high: '{field} must be at most {max} DZD',
  not_boolean: '{field} must be true or false',
  not_one_of: '{field} must be one of {values}',
  not_datetime: '{field} must be an ISO 8601 date and time',
  bad_datetime:
    '{field} must be an ISO 8601 date and time with a time zone, e.g. 2026-06-30T23:59:00+01:00',
  not_future: '{field} must be in the future',
  not_url: '{field} must be a URL',
  bad_url: '{field} must be an http:// or https:// URL',
  not_item: '{field} must be an object with description, quantity and unit_price',
  not_list: '{field} must be a list of items',
  too_few_items: '{field} must list at least one item',
  too_many_items: '{field} must list at most {max} items',
  too_many_keys: '{field} must have at most {max} keys',
  bad_key: '{field} keys must be made of letters, digits, _, . and - only',
  key_too_long: '{field} keys must be at most {max} characters',
  pricing_required:
    '{field} is required: give amount, amount_min/amount_max, invoice_id with amount, or invoice_items',
  invoice_amount_required: "{field} is required with invoice_id (the invoice's total)",
  amount_with_items: '{field} must be left out with invoice_items: the amount is their total',
  range_with_items: '{field} cannot be combined with invoice_items',
  invoice_id_with_items: '{field} cannot be combined with invoice_items: give one or the other',
  range_with_amount: '{field} cannot be combined with amount (a fixed amount)',
  max_below_min: '{field} must not be less than amount_min',
  items_total_too_low: '{field} total must be at least {min} DZD',
  items_total_too_high: '{field} total must be at most {max} DZD',
  checkout_pricing_required: '{field} is required: give amount or line_items',
  amount_with_line_items: '{field} must be left out with line_items: the amount is their total',
  not_line_item:
    '{field} must be an object with name, quantity and unit_price, or with product_id and quantity',
  not_with_product: '{field} cannot be combined with product_id',
  bad_name: '{field} must be a name of 2 to 100 characters, without < or >',
  bad_phone: '{field} must be a phone number, e.g. 0550123456 or +213550123456',
  bad_email: '{field} must be an e-mail address',
  unknown_product: '{field} names no product of this Paylinks',
  not_available: '{field} must be {value}: this Paylinks does not offer it',
  partial_needs_amount: '{field} needs a fixed amount or an invoice: an open amount has no balance',
  partial_min_too_high: '{field} must be less than the link’s amount',
  partial_with_max_payments:
    '{field} must be null with allow_partial: a deposit link takes parts until it is paid in full',
  partial_not_for_till: '{field} is not for a till sale',
  bad_field_key: '{field} must be 1 to 40 lower-case letters, digits or _',
  duplicate_key: '{field} is the key of another field',
  options_required: '{field} is required for a select field',
  options_only_for_select: '{field} is only for a select field',
  duplicate_option: '{field} must not list the same option twice',
  line_items_with_pricing:
    '{field} must be left out with line_items: the amount is the products’ price × quantity',
  duplicate_product: '{field} names a product an earlier line already names',
  product_archived: '{field} names an archived product',
  quantity_out_of_range: '{field} must be from {min} to {max}',
  mixed_line_items:
    '{field} mixes a product with named lines: a checkout’s lines are either all products (product_id) or all named (name, unit_price)',
  bad_promo_code: '{field} must be 3 to 40 letters, digits, _ or -',
  one_discount:
    '{field} needs the other kind left out: give percent_off or amount_off, one of them',
}

const t = translator(API_PROBLEMS)

/** What the API's bodies are, for `unknown_field`: "a link" unless said. */
export type BodyObject = 'a link' | 'a checkout' | 'a promo code'

/** One problem in the API's words, naming the field. Amounts are written in DZD: `50`. */
export function apiProblemText(
  field: string,
  problem: Problem,
  object: BodyObject = 'a link',
): string {
  const params: Record<string, string | number> = { object, ...problem.params, field }
  if (AMOUNT_PROBLEMS.has(problem.code)) {
    for (const [k, v] of Object.entries(problem.params ?? {}))
      if (typeof v === 'number') params[k] = centimesToDzdShort(v)
  }
  return t(problem.code, params)
}

/** Every field's problem in the API's words: `{ amount_min: 'amount_min must be at least 50 DZD' }`. */
export function apiFieldMessages(
  problems: FieldProblems,
  object: BodyObject = 'a link',
): Record<string, string> {
  // No prototype, as in the problems: a field named `__proto__` is reported like any other.
  const out: Record<string, string> = Object.create(null)
  for (const [field, problem] of Object.entries(problems))
    out[field] = apiProblemText(field, problem, object)
  return out
}

/**
 * A product body's problems in the API's words: as a link's, but an unknown field is not a field
 * of a product, and a refused SKU says what a SKU may hold.
 */
export function productFieldMessages(problems: FieldProblems): Record<string, string> {
  const out = apiFieldMessages(problems)
  for (const [field, problem] of Object.entries(problems)) {
    if (problem.code === 'unknown_field') out[field] = `${field} is not a field of a product`
    if (field === 'sku' && problem.code === 'invalid')
      out[field] =
        'sku must start with a letter or digit and hold only letters, digits, ., _, - and / (at most 64)'
  }
  return out
}
