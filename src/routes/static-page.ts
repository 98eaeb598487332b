/**
 * Pages that are the same for every visitor — the plain checkout form of a link — prepared once:
 * the bytes, their gzip form, and every response header, with a Content-Security-Policy that names
 * the SHA-256 of the page's inline style and script instead of a per-request nonce
 * (docs/decisions/performance.md, "Prepared once, sent as is", "CSP hashes instead of a nonce").
 */

import { type SecurityPolicy, securityHeaderRecord } from '../http/security-headers.js'
import { toBase64 } from '../lib/bytes.js'

/** gzip as the runtime offers it (Node's zlib); prepared pages keep both forms. */
export type Gzip = (bytes: Uint8Array) => Uint8Array | Promise<Uint8Array>

export interface StaticPage {
  headers: Readonly<Record<string, string>>
  body: Uint8Array
  /** The gzip form, when the runtime compresses (Node; Workers' edge compresses by itself). */
  gzip?: { headers: Readonly<Record<string, string>>; body: Uint8Array } | undefined
}

const encoder = new TextEncoder()

async function sha256Source(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', encoder.encode(text))
  return `'sha256-${toBase64(new Uint8Array(digest))}'`
}

/** The inline contents of every `<tag>` element of `html` (no attributes expected). */
function inline(html: string, tag: 'style' | 'script'): string[] {
  const pattern = new RegExp(`<${tag}>([\\s\\S]*?)</${tag}>`, 'g')
  return [...html.matchAll(pattern)].map((m) => m[1] ?? '')
}

/**
 * Prepares `html`, rendered without nonces, for sending as is. Throws if an inline element still
 * carries an attribute (its hash would not be found, and the page would break under the policy).
 */
export async function prepareStaticPage(
  html: string,
  options: {
    security: SecurityPolicy
    gzip?: Gzip | undefined
  },
): Promise<StaticPage> {
  if (/<(style|script)\s[^>]*>/.test(html)) throw new Error('An inline element has attributes')
  const hashes = async (tag: 'style' | 'script') =>
    (await Promise.all(inline(html, tag).map(sha256Source))).join(' ')
  const headers: Record<string, string> = {
    'Content-Type': 'text/html; charset=UTF-8',
    ...securityHeaderRecord(options.security, {
      script: await hashes('script'),
      style: await hashes('style'),
    }),
  }
  const body = encoder.encode(html)
  if (!options.gzip) return { headers, body }
  headers.Vary = 'Accept-Encoding'
  return {
    headers,
    body,
    gzip: {
      headers: { ...headers, 'Content-Encoding': 'gzip' },
      body: await options.gzip(body),
    },
  }
}

/** True when the request's Accept-Encoding takes gzip (and does not refuse it with q=0). */
export function acceptsGzip(acceptEncoding: string | undefined): boolean {
  if (!acceptEncoding) return false
  for (const part of acceptEncoding.split(',')) {
    const [coding, ...params] = part.split(';')
    const name = coding?.trim().toLowerCase()
    if (name !== 'gzip' && name !== '*') continue
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='))
    return !q || Number(q.slice(2)) > 0
  }
  return false
}

/** The form of a prepared page to send: gzip when asked for and available. */
export function pageVariant(
  page: StaticPage,
  acceptEncoding: string | undefined,
): { headers: Readonly<Record<string, string>>; body: Uint8Array } {
  return page.gzip && acceptsGzip(acceptEncoding) ? page.gzip : page
}
