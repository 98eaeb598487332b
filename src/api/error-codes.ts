/**
 * Every error code the API answers, so a script can branch on `error.code` (errors.ts answers
 * them, error-object.ts documents them).
 */
export const API_ERROR_CODES = [
  'unauthorized',
  'forbidden',
  'not_found',
  'method_not_allowed',
  'invalid_json',
  'invalid_body',
  'unprocessable_body',
  'invalid_query',
  'invalid_header',
  'unsupported_media_type',
  'payload_too_large',
  'rate_limited',
  'link_has_payments',
  'product_sold',
  'sku_in_use',
  'promo_code_taken',
  'link_belongs_to_checkout',
  'checkout_not_open',
  'checkout_payment_in_progress',
  'idempotency_key_in_use',
  'idempotency_key_reused',
  'endpoint_limit',
  'gateway_error',
  'internal',
] as const
export type ApiErrorCode = (typeof API_ERROR_CODES)[number]
