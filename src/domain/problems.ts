/**
 * What the link rules can find wrong with an input, as codes with parameters. Each surface words
 * them in its own table (the API in English, the dashboard in ar/fr/en), all typed by
 * PROBLEM_CODES, so a new code fails the typecheck until every surface can say it.
 */

export const PROBLEM_CODES = [
  // Any field
  'required',
  'invalid', // a rule no other code names
  'unknown_field',
  'not_object',
  // Text
  'not_text',
  'empty',
  'too_long', // { max } characters
  'not_clean_text',
  // Numbers
  'not_whole',
  'too_small', // { min }
  'too_big', // { max }
  // Amounts, parameters in centimes
  'not_dzd',
  'bad_dzd',
  'not_positive',
  'amount_too_low', // { min }
  'amount_too_high', // { max }
  // Other kinds of value
  'not_boolean',
  'not_one_of', // { values }: the choices, comma-separated
  'not_datetime',
  'bad_datetime',
  'not_future',
  'not_url',
  'bad_url',
  'not_item',
  'not_list',
  'too_few_items', // { min }
  'too_many_items', // { max }
  // Metadata: its keys
  'too_many_keys', // { max }
  'bad_key',
  'key_too_long', // { max }
  // Pricing, which spans several fields
  'pricing_required',
  'invoice_amount_required',
  'amount_with_items',
  'range_with_items',
  'invoice_id_with_items',
  'range_with_amount',
  'max_below_min',
  'items_total_too_low', // { min }
  'items_total_too_high', // { max }
  // Checkouts: their amount or line items, their customer's prefill, what the catalogue would give
  'checkout_pricing_required',
  'amount_with_line_items',
  'not_line_item',
  'not_with_product',
  'bad_name',
  'bad_phone',
  'bad_email',
  'unknown_product',
  'not_available', // { value }: the only value taken
  // Deposits (allow_partial): a fixed or invoice link's least part, its other limits
  'partial_needs_amount',
  'partial_min_too_high',
  'partial_with_max_payments',
  'partial_not_for_till',
  // Custom fields: their keys and a select's options
  'bad_field_key',
  'duplicate_key',
  'options_required',
  'options_only_for_select',
  'duplicate_option',
  // Carts: a link's or a checkout's product lines
  'line_items_with_pricing',
  'duplicate_product',
  'product_archived',
  'quantity_out_of_range', // { min, max }
  'mixed_line_items',
  // Promo codes: the code's text, and exactly one kind of discount
  'bad_promo_code',
  'one_discount',
] as const

export type ProblemCode = (typeof PROBLEM_CODES)[number]

/** Codes whose parameters are amounts in centimes: a surface formats them as money. */
export const AMOUNT_PROBLEMS: ReadonlySet<ProblemCode> = new Set([
  'amount_too_low',
  'amount_too_high',
  'items_total_too_low',
  'items_total_too_high',
])

/** One thing wrong with one field: `{ code: 'amount_too_low', params: { min: 5000 } }`. */
export type Problem = {
  code: ProblemCode
  params?: Readonly<Record<string, string | number>>
}

/** Problems keyed by field path (`invoice_items[0].quantity`), the first found per field. */
export type FieldProblems = Record<string, Problem>

/** True for a string that is one of the codes. */
export function isProblemCode(value: unknown): value is ProblemCode {
  return (PROBLEM_CODES as readonly unknown[]).includes(value)
}
