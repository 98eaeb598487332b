import type { MiddlewareHandler } from 'hono'
import { randomBytes, toBase64 } from '../client/core/bytes.js'
import type { AppEnv } from '../env.js'

/** The security headers every response carries besides the Content-Security-Policy. */
export const FIXED_SECURITY_HEADERS: ReadonlyArray<readonly [string, string]> = [
  ['Cross-Origin-Opener-Policy', 'same-origin'],
  ['Cross-Origin-Resource-Policy', 'same-origin'],
  ['Origin-Agent-Cluster', '?1'],
  ['Permissions-Policy', 'camera=(), microphone=(), geolocation=(), payment=()'],
  ['Referrer-Policy', 'no-referrer'],
  ['Strict-Transport-Security', 'max-age=31536000; includeSubDomains'],
  ['X-Content-Type-Options', 'nosniff'],
  ['X-DNS-Prefetch-Control', 'off'],
  ['X-Download-Options', 'noopen'],
  ['X-Frame-Options', 'SAMEORIGIN'],
  ['X-Permitted-Cross-Domain-Policies', 'none'],
  ['X-XSS-Protection', '0'],
]

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
  formTargets: string[],
  sources: { script: string; style: string },
): Record<string, string> {
  const headers: Record<string, string> = {
    'Content-Security-Policy': contentSecurityPolicy(formTargets, sources),
  }
  for (const [name, value] of FIXED_SECURITY_HEADERS) headers[name] = value
  return headers
}

/**
 * The headers of a JSON reply to another server (the gateway's webhook deliveries), after OWASP's
 * REST cheat sheet: never cached, never sniffed, framed or run as a page should a browser open it.
 * The page-oriented headers above would only lengthen every reply of a delivery storm.
 */
export const MACHINE_REPLY_HEADERS: Readonly<Record<string, string>> = {
  'Content-Type': 'application/json',
  'Cache-Control': 'no-store',
  'Content-Security-Policy': "default-src 'none'; frame-ancestors 'none'",
  'Strict-Transport-Security': 'max-age=31536000; includeSubDomains',
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
}

/**
 * A strict Content-Security-Policy with a per-request nonce for the inline style and script of
 * each page, and the usual security headers. Everything but the nonce is built once.
 */
export function securityHeaders(formTargets: string[]): MiddlewareHandler<AppEnv> {
  const MARK = '\u0000'
  const [before, between, after] = contentSecurityPolicy(formTargets, {
    script: `'nonce-${MARK}'`,
    style: `'nonce-${MARK}'`,
  }).split(MARK) as [string, string, string]
  // The headers are set before the handler runs: Hono then builds the response with them, which
  // keeps @hono/node-server on its fast path; changing a finished response's headers makes it
  // materialise a full Response object, several times slower.
  return async (c, next) => {
    const nonce = toBase64(randomBytes(16))
    c.set('secureHeadersNonce', nonce)
    c.header('Content-Security-Policy', before + nonce + between + nonce + after)
    for (const [name, value] of FIXED_SECURITY_HEADERS) c.header(name, value)
    await next()
  }
}
