/**
 * Pages that are the same for every visitor — the plain checkout form of a link — prepared once:
 * the bytes, their gzip form, and every response header, with a Content-Security-Policy that names
 * the SHA-256 of the page's inline style and script instead of a per-request nonce
 * (docs/decisions/performance.md, "Prepared once, sent as is", "CSP hashes instead of a nonce").
 * A page may keep one slot (an empty attribute) that each answer fills with its own text — the
 * captcha's challenge — spliced between the prepared bytes, and into their gzip form.
 */

import type { Gzip, SecurityPolicy, SpliceGzip, StaticPage } from '../deps.js'
import { securityHeaderRecord } from '../http/security-headers.js'
import { toBase64 } from '../lib/bytes.js'

export type { StaticPage }

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
    /** The gzip form of a page with a slot (Node). */
    spliceGzip?: SpliceGzip | undefined
    /** Text found once in `html` (an empty attribute, `name=""`): filled per answer. */
    slot?: string | undefined
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
  const at = options.slot ? html.indexOf(options.slot) : -1
  const slot =
    at < 0
      ? undefined
      : {
          before: encoder.encode(html.slice(0, at + (options.slot?.length ?? 0) - 1)),
          after: encoder.encode(html.slice(at + (options.slot?.length ?? 0) - 1)),
        }
  if (!options.gzip) return { headers, body, slot }
  headers.Vary = 'Accept-Encoding'
  return {
    headers,
    body,
    gzip: {
      headers: { ...headers, 'Content-Encoding': 'gzip' },
      body: await options.gzip(body),
    },
    slot: slot && {
      ...slot,
      gzip: options.spliceGzip?.(slot.before, slot.after),
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

/**
 * The form of a prepared page to send: gzip when asked for and available; its slot, if any, filled
 * with `fill()` (text ready for an attribute; without `fill` the slot stays empty).
 */
export function pageVariant(
  page: StaticPage,
  acceptEncoding: string | undefined,
  fill?: () => string,
): { headers: Readonly<Record<string, string>>; body: Uint8Array } {
  const gzip = page.gzip && acceptsGzip(acceptEncoding)
  const slot = page.slot
  if (!slot || !fill) return gzip ? page.gzip! : page
  const middle = encoder.encode(fill())
  if (gzip && slot.gzip) return { headers: page.gzip!.headers, body: slot.gzip(middle) }
  const body = new Uint8Array(slot.before.length + middle.length + slot.after.length)
  body.set(slot.before)
  body.set(middle, slot.before.length)
  body.set(slot.after, slot.before.length + middle.length)
  return { headers: page.headers, body }
}
