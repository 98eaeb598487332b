/**
 * Where the merchant API's OpenAPI document and its docs page come from. Both are made once with
 * slots for what differs per deployment (the public URL) and per answer (the page's CSP nonce),
 * then filled: Node makes them from the zod schemas on first use, the Worker reads the same text
 * from its static assets, built before the upload (docs/decisions/performance.md, "The Worker
 * upload"). This module holds no schema, so the Worker carries none of the generator.
 */
import type { ApiDocs } from '../deps.js'
import type { OpenApiDocument } from './openapi-types.js'

/** Stands for the public URL in the templates: a name that can never be a real host. */
export const PUBLIC_URL_SLOT = 'https://public-url.paylinks.invalid'
/** Stands for the CSP nonce in the docs page's template. */
export const NONCE_SLOT = 'paylinks-nonce-slot'

/** The document as JSON text and the docs page as HTML, both with their slots. */
export interface ApiDocsTemplates {
  documentJson: string
  pageHtml: string
}

export type { ApiDocs }

const serverUrl = (publicUrl: string) => publicUrl.replace(/\/+$/, '')

const HTML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
}
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (ch) => HTML_ESCAPES[ch]!)

/** The document's JSON text with `publicUrl` in its slots (JSON-escaped). */
export function fillDocument(json: string, publicUrl: string): string {
  return json.replaceAll(PUBLIC_URL_SLOT, JSON.stringify(serverUrl(publicUrl)).slice(1, -1))
}

/** The docs page with `publicUrl` (HTML-escaped) and `nonce` in their slots. */
export function fillPage(html: string, publicUrl: string, nonce: string): string {
  return html
    .replaceAll(PUBLIC_URL_SLOT, escapeHtml(serverUrl(publicUrl)))
    .replaceAll(NONCE_SLOT, escapeHtml(nonce))
}

/**
 * `ApiDocs` over templates loaded once (a failed load is tried again by the next request); the
 * last filled document is kept, as the public URL does not change while a process runs.
 */
export function apiDocsFrom(load: () => Promise<ApiDocsTemplates>): ApiDocs {
  let templates: Promise<ApiDocsTemplates> | undefined
  let last: { publicUrl: string; doc: OpenApiDocument } | undefined
  const loaded = () => {
    templates ??= load().catch((error: unknown) => {
      templates = undefined
      throw error
    })
    return templates
  }
  return {
    async document(publicUrl) {
      if (last?.publicUrl === publicUrl) return last.doc
      const doc = JSON.parse(fillDocument((await loaded()).documentJson, publicUrl))
      last = { publicUrl, doc }
      return doc
    },
    async page(publicUrl, nonce) {
      return fillPage((await loaded()).pageHtml, publicUrl, nonce)
    },
  }
}
