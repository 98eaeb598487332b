/**
 * The OpenAPI document and its docs page as templates (see api-docs-source.ts), made from the zod
 * schemas: by Node on first use, and by scripts/build-worker-assets.ts into the Worker's static
 * assets. The Worker itself never imports this module (it holds the whole generator).
 */
import { ApiDocsPage } from '../../views/api-docs.js'
import {
  type ApiDocs,
  type ApiDocsTemplates,
  apiDocsFrom,
  NONCE_SLOT,
  PUBLIC_URL_SLOT,
} from './api-docs-source.js'
import { openApiDocument } from './openapi.js'

/** Generates the document and renders the docs page, each with its slots. */
export async function apiDocsTemplates(): Promise<ApiDocsTemplates> {
  const doc = openApiDocument(PUBLIC_URL_SLOT)
  const page = (<ApiDocsPage doc={doc} nonce={NONCE_SLOT} />) as { toString(): unknown }
  return { documentJson: JSON.stringify(doc), pageHtml: String(await page.toString()) }
}

/** `ApiDocs` generated in this process, on first use (Node). */
export function generatedApiDocs(): ApiDocs {
  return apiDocsFrom(apiDocsTemplates)
}
