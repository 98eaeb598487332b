/**
 * Pages rendered per request — the receipt, failure and message pages, terms, error pages, the
 * dashboard — compressed when the browser asks (brotli or gzip): a receipt is some 9 KB of HTML, a fifth of a
 * second on a slow 3G link uncompressed. The runtime does the encoding (`EncodePage`): Node
 * compresses with zlib; a Worker only names the coding and workerd encodes the body as it sends it.
 * Prepared checkout pages carry their own gzip form and are left alone.
 */
import type { MiddlewareHandler } from 'hono'
import type { Coding, EncodePage } from '../deps.js'

export type { EncodePage }

/** The q-value `acceptEncoding` gives `coding` (0 when absent or refused). */
function quality(acceptEncoding: string, coding: Coding): number {
  let star = 0
  for (const part of acceptEncoding.split(',')) {
    const [name, ...params] = part.split(';')
    const token = name?.trim().toLowerCase()
    if (token !== coding && token !== '*') continue
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='))
    const value = q ? Number(q.slice(2)) : 1
    const safe = Number.isFinite(value) ? value : 0
    if (token === coding) return safe
    star = safe
  }
  return star
}

/** The first of `codings` that `acceptEncoding` takes, or null. */
export function chooseCoding(
  acceptEncoding: string | undefined,
  codings: readonly Coding[],
): Coding | null {
  if (!acceptEncoding) return null
  return codings.find((coding) => quality(acceptEncoding, coding) > 0) ?? null
}

/**
 * The Accept-Encoding the client sent. Cloudflare hands a Worker its own (`br, gzip`) whatever the
 * client asked, and keeps the client's in `request.cf.clientAcceptEncoding` (`""` when it sent
 * none); miniflare and `wrangler dev` do the same but, unlike Cloudflare's edge, pass a gzip body
 * on to a client that never asked for it (`curl` without `--compressed`). Node has no `cf`.
 */
export function clientAcceptEncoding(request: Request): string | undefined {
  const cf = (request as { cf?: { clientAcceptEncoding?: unknown } }).cf
  if (typeof cf?.clientAcceptEncoding === 'string') return cf.clientAcceptEncoding
  return request.headers.get('accept-encoding') ?? undefined
}

/** Encodes HTML responses not encoded yet for a browser that takes brotli or gzip. */
export function compressPages(encode: EncodePage | undefined): MiddlewareHandler {
  return async (c, next) => {
    await next()
    if (!encode || c.req.method === 'HEAD') return
    const res = c.res
    if (!res.body || res.headers.has('Content-Encoding')) return
    if (!res.headers.get('Content-Type')?.startsWith('text/html')) return
    if (!/accept-encoding/i.test(res.headers.get('Vary') ?? ''))
      res.headers.append('Vary', 'Accept-Encoding')
    const coding = chooseCoding(clientAcceptEncoding(c.req.raw), encode.codings)
    if (!coding) return
    // Replaced outright (not through `c.res =`, which would copy the old headers back).
    c.res = undefined
    c.res = await encode.encode(res, coding)
  }
}

/**
 * Workers: the coding named and the body left as it is; workerd encodes it as it sends it (a
 * Response's `encodeBody` is "automatic" unless said otherwise). gzip only: a brotli body came out
 * empty through miniflare's local server.
 */
export const workerdEncodes: EncodePage = {
  codings: ['gzip'],
  encode(response, coding) {
    const res = new Response(response.body, response)
    res.headers.set('Content-Encoding', coding)
    return res
  },
}
