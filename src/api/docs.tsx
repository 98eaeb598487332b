/** `GET /api/docs`: the OpenAPI document as a readable page, rendered on the server. */
import type { Context } from 'hono'
import { ApiDocsPage } from '../../views/api-docs.js'
import type { AppEnv } from '../app-deps.js'
import { openApiDocument } from './openapi.js'

/** Renders the docs page for this Paylinks' document. */
export function apiDocsPage(c: Context<AppEnv>) {
  const doc = openApiDocument(c.get('config').publicUrl)
  return c.html(<ApiDocsPage doc={doc} nonce={c.get('secureHeadersNonce') ?? ''} />)
}
