/**
 * The OpenAPI document at `/api/v1/openapi.json` and the same as a readable page at `/api/docs`,
 * from the runtime's `apiDocs` (generated on Node, read from static assets on Workers).
 */
import type { Context } from 'hono'
import type { AppEnv } from '../deps.js'

/** The OpenAPI document of this Paylinks, as JSON. */
export async function openApiJson(c: Context<AppEnv>) {
  return c.json(await c.get('apiDocs').document(c.get('config').publicUrl))
}

/** The docs page, rendered on the server. */
export async function apiDocsPage(c: Context<AppEnv>) {
  const nonce = c.get('secureHeadersNonce') ?? ''
  return c.html(await c.get('apiDocs').page(c.get('config').publicUrl, nonce))
}
