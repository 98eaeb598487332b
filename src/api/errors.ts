/**
 * The merchant API's one error shape, `{"error": {"code", "message", "fields"}}` (its zod schema,
 * for the OpenAPI document, is in error-object.ts) and the helper every handler answers errors with.
 */
import type { Context } from 'hono'
import type { ContentfulStatusCode } from 'hono/utils/http-status'
import type { AppEnv } from '../deps.js'
import type { ApiErrorCode } from './error-codes.js'
import type { ApiErrorObject } from './error-object.js'

export { API_ERROR_CODES, type ApiErrorCode } from './error-codes.js'

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
