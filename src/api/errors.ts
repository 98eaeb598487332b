/**
 * The merchant API's one error shape, `{"error": {"code", "message", "fields"}}` (its zod schema,
 * for the OpenAPI document, is in error-object.ts) and the helper every handler answers errors with.
 */
import type { Context } from 'hono'
import type { ContentfulStatusCode } from 'hono/utils/http-status'
import type { AppEnv } from '../app-deps.js'
import type { ApiErrorObject } from './error-object.js'

/** Every error code the API answers, so a script can branch on `error.code`. */
export const API_ERROR_CODES = [
  'unauthorized',
  'forbidden',
  'not_found',
  'method_not_allowed',
  'invalid_json',
  'invalid_body',
  'invalid_query',
  'unsupported_media_type',
  'payload_too_large',
  'rate_limited',
  'link_has_payments',
  'endpoint_limit',
  'gateway_error',
  'internal',
] as const
export type ApiErrorCode = (typeof API_ERROR_CODES)[number]

export type { ApiErrorObject }

/** Answers an API error with the given 4xx/5xx status. */
export function apiError(
  c: Context<AppEnv>,
  status: ContentfulStatusCode,
  code: ApiErrorCode,
  message: string,
  fields?: Record<string, string>,
) {
  const body: ApiErrorObject = { error: { code, message, ...(fields ? { fields } : {}) } }
  return c.json(body, status)
}

/** Answers 400 naming each bad field. */
export function invalidFields(
  c: Context<AppEnv>,
  code: 'invalid_body' | 'invalid_query',
  fields: Record<string, string>,
) {
  const where = code === 'invalid_body' ? 'The request body' : 'The query string'
  return apiError(
    c,
    400,
    code,
    `${where} has invalid fields: ${Object.keys(fields).join(', ')}.`,
    fields,
  )
}
