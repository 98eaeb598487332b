import type { MiddlewareHandler } from 'hono'
import type { SecurityPolicy } from '../deps.js'
import { randomBytes, toBase64 } from '../lib/bytes.js'

export type { SecurityPolicy }

/**
 * The headers every page carries besides the Content-Security-Policy, after OWASP's HTTP headers
 * cheat sheet. Left out on purpose: `X-XSS-Protection` (the cheat sheet says not to set it; no
 * browser has the filter any more), and headers for clients gone or irrelevant here —
 * `X-Download-Options` (Internet Explorer 8), `X-Permitted-Cross-Domain-Policies` (Flash and
 * Acrobat), `X-DNS-Prefetch-Control` (the pages link nowhere else) and `Origin-Agent-Cluster` (a
 * hint about sharing a process with the rest of the site, which has nothing to say to these
 * pages). See docs/decisions/performance.md, "Only the headers that still do something".
 */
const PAGE_HEADERS: ReadonlyArray<readonly [string, string]> = [
  ['Cross-Origin-Opener-Policy', 'same-origin'],
  ['Cross-Origin-Resource-Policy', 'same-origin'],
  ['Permissions-Policy', 'camera=(), microphone=(), geolocation=(), payment=()'],
  ['Referrer-Policy', 'no-referrer'],
  ['X-Content-Type-Options', 'nosniff'],
  // For browsers that predate the policy's frame-ancestors; says the same.
  ['X-Frame-Options', 'DENY'],
]

/**
 * Strict-Transport-Security, sent only when Paylinks is reached over HTTPS: RFC 6797 (7.2) forbids
 * it on plain HTTP, where browsers ignore it anyway.
 */
const HSTS = ['Strict-Transport-Security', 'max-age=31536000; includeSubDomains'] as const

/** The security headers of every page besides the Content-Security-Policy. */
export function fixedSecurityHeaders(https: boolean): ReadonlyArray<readonly [string, string]> {
  return https ? [...PAGE_HEADERS, HSTS] : PAGE_HEADERS
}

/** What `PUBLIC_URL` and the gateway's site say about the headers. */
export function securityPolicy(config: {
  publicUrl: string
  gatewaySiteUrl: string
}): SecurityPolicy {
  return {
    // The checkout answers with a 303 to the card network's page, whose host the gateway chooses
    // (its payment_url), so any https target is allowed after the gateway's own origin.
    formTargets: [new URL(config.gatewaySiteUrl).origin, 'https:'],
    https: new URL(config.publicUrl).protocol === 'https:',
  }
}

/**
 * The Content-Security-Policy: nothing from elsewhere; the page's own inline style and script only
 * when they match `sources` (a nonce, or their SHA-256 hashes). `formTargets` are the origins a
 * form may end up at: the checkout form answers with a 303 to the card network's page, and
 * browsers apply `form-action` to that redirect too.
 */
export function contentSecurityPolicy(
  formTargets: string[],
  sources: { script: string; style: string },
): string {
  return `default-src 'none'; base-uri 'none'; script-src 'self' ${sources.script}; style-src 'self' ${sources.style}; img-src 'self' data:; font-src 'self'; connect-src 'self'; worker-src 'self' blob:; form-action ${["'self'", ...formTargets].join(' ')}; frame-ancestors 'none'; object-src 'none'`
}

/** Every security header, with the policy for `sources`, as one plain record (built once by callers). */
export function securityHeaderRecord(
  policy: SecurityPolicy,
  sources: { script: string; style: string },
): Record<string, string> {
  const headers: Record<string, string> = {
    'Content-Security-Policy': contentSecurityPolicy(policy.formTargets, sources),
  }
  for (const [name, value] of fixedSecurityHeaders(policy.https)) headers[name] = value
  return headers
}

/**
 * What a public image changes (the QR codes, whose addresses the API hands out to be shown
 * anywhere): any site may display it — the pages' `same-origin` resource policy would keep a shop
 * from showing its own QR code — and read it without credentials (CORS), to draw it on a canvas
 * or inline the SVG. They are the same for everyone and carry nothing private.
 */
export const PUBLIC_IMAGE_HEADERS: ReadonlyArray<readonly [string, string]> = [
  ['Cross-Origin-Resource-Policy', 'cross-origin'],
  ['Access-Control-Allow-Origin', '*'],
]

/**
 * The headers of a JSON reply to another server (the gateway's webhook deliveries), after OWASP's
 * REST cheat sheet: never cached, never sniffed, framed or run as a page should a browser open it
 * (docs/decisions/performance.md, "Ahead of the middleware, short replies").
 */
export function machineReplyHeaders(https: boolean): Readonly<Record<string, string>> {
  return {
    'Content-Type': 'application/json',
    'Cache-Control': 'no-store',
    'Content-Security-Policy': "default-src 'none'; frame-ancestors 'none'",
    ...(https ? { [HSTS[0]]: HSTS[1] } : {}),
    'X-Content-Type-Options': 'nosniff',
    'X-Frame-Options': 'DENY',
  }
}

/**
 * A strict Content-Security-Policy with a per-request nonce for the inline style and script of
 * each page, and the usual security headers. Everything but the nonce is built once.
 */
export function securityHeaders(
  policy: SecurityPolicy,
): MiddlewareHandler<{ Variables: { secureHeadersNonce?: string } }> {
  const MARK = '\u0000'
  const fixed = fixedSecurityHeaders(policy.https)
  const [before, between, after] = contentSecurityPolicy(policy.formTargets, {
    script: `'nonce-${MARK}'`,
    style: `'nonce-${MARK}'`,
  }).split(MARK) as [string, string, string]
  // Set before the handler runs (docs/decisions/performance.md, "Headers before the response").
  return async (c, next) => {
    const nonce = toBase64(randomBytes(16))
    c.set('secureHeadersNonce', nonce)
    c.header('Content-Security-Policy', before + nonce + between + nonce + after)
    for (const [name, value] of fixed) c.header(name, value)
    await next()
  }
}
