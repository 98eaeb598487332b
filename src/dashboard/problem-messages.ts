/** Which of the dashboard's messages says each problem the link rules find. */
import type { ProblemCode } from '../domain/problems.js'
import type { DashKey } from './messages-en.js'

/**
 * The message beside a field for each problem code. Several codes share a message where the form
 * leaves the person one thing to do; an amount's limits are written out in the messages, so their
 * parameters (centimes) are not shown. A new code fails the typecheck until it is listed here.
 */
export const PROBLEM_MESSAGES: Record<ProblemCode, DashKey> = {
  required: 'errRequired',
  empty: 'errRequired',
  invalid: 'errInvalid',
  unknown_field: 'errInvalid',
  not_object: 'errInvalid',
  not_text: 'errInvalid',
  too_long: 'errMaxChars',
  not_clean_text: 'errText',
  not_whole: 'errWhole',
  too_small: 'errAtLeast',
  too_big: 'errAtMost',
  not_dzd: 'errAmountText',
  bad_dzd: 'errAmountText',
  not_positive: 'errPositive',
  amount_too_low: 'errMinAmount',
  amount_too_high: 'errMaxAmount',
  not_boolean: 'errInvalid',
  not_one_of: 'errLanguage', // a link's only choice among values is its language
  not_datetime: 'errDateTime',
  bad_datetime: 'errDateTime',
  not_future: 'errFuture',
  not_url: 'errUrl',
  bad_url: 'errUrl',
  not_item: 'errInvalid',
  not_list: 'errInvalid',
  too_few_items: 'errItemsNone',
  too_many_items: 'errItemsMax',
  // The form has no metadata; only the API sends it.
  too_many_keys: 'errInvalid',
  bad_key: 'errInvalid',
  key_too_long: 'errInvalid',
  pricing_required: 'errPricing',
  invoice_amount_required: 'errInvoiceAmount',
  amount_with_items: 'errPricingConflict',
  range_with_items: 'errPricingConflict',
  invoice_id_with_items: 'errPricingConflict',
  range_with_amount: 'errPricingConflict',
  max_below_min: 'errMaxBelowMin',
  items_total_too_low: 'errItemsTotalMin',
  items_total_too_high: 'errItemsTotalMax',
  // Checkouts are made by the API only; the dashboard never words these.
  checkout_pricing_required: 'errInvalid',
  amount_with_line_items: 'errInvalid',
  not_line_item: 'errInvalid',
  not_with_product: 'errInvalid',
  bad_name: 'errInvalid',
  bad_phone: 'errInvalid',
  bad_email: 'errInvalid',
  unknown_product: 'errInvalid',
  not_available: 'errInvalid',
  // Deposits
  partial_needs_amount: 'errPartialNeedsAmount',
  partial_min_too_high: 'errPartialMinTooHigh',
  partial_with_max_payments: 'errPartialMaxPayments',
  partial_not_for_till: 'errInvalid',
  bad_field_key: 'errFieldKey',
  duplicate_key: 'errFieldKeyTaken',
  options_required: 'errFieldOptions',
  options_only_for_select: 'errFieldOptionsSelect',
  duplicate_option: 'errFieldOptionTwice',
  // Carts
  line_items_with_pricing: 'errPricingConflict',
  duplicate_product: 'errCartDuplicate',
  product_archived: 'errCartArchived',
  quantity_out_of_range: 'errCartQuantity',
  mixed_line_items: 'errInvalid',
  bad_promo_code: 'pcErrCode',
  one_discount: 'pcErrOneDiscount',
}
