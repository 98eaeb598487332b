/** The `/v1` interface's Error body and JSON body reading. */
import type { Context } from 'hono'
import { readJsonObject } from '../validation.js'

const CODES = { 400: 'invalid_request', 401: 'unauthorized', 404: 'not_found' } as const

/** The Error body of the `/v1` interface: `{ success: false, error, code }`. */
export function v1Error(c: Context, status: 400 | 401 | 404, message: string): Response {
  return c.json({ success: false, error: message, code: CODES[status] }, status)
}

/** Parses a JSON request body, or answers 400. */
export async function v1Body(c: Context): Promise<Record<string, unknown> | Response> {
  return (await readJsonObject(c.req.raw)) ?? v1Error(c, 400, 'The body must be a JSON object')
}
