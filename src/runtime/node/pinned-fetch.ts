/**
 * Outbound webhooks on Node, connected to the addresses the target check resolved and passed
 * (src/outbound-webhooks/target-check.ts): node:http(s) `request` with a `lookup` that answers those
 * addresses instead of asking the resolver again, so a name that rebinds between the check and the
 * connection (public first, 127.0.0.1 next) still reaches the checked address. The URL's host
 * stays in the Host header and is the TLS server name (SNI) the certificate is verified against.
 * Redirects are not followed (node:http never does), and each attempt has its own connection: a
 * pooled one could have been opened to an address checked for an earlier attempt.
 */
import type { LookupAddress } from 'node:dns'
import { request as httpRequest, type IncomingMessage } from 'node:http'
import { request as httpsRequest } from 'node:https'
import { isIP, type LookupFunction } from 'node:net'
import { Readable } from 'node:stream'
import type { WebhookFetch } from '../../outbound-webhooks/post.js'

export interface PinnedFetchOptions {
  /** Certificates to trust instead of Node's (a test receiver's own; NODE_EXTRA_CA_CERTS otherwise). */
  ca?: string | Buffer
}

/** The webhook sender's POST over node:http(s), pinned to the request's `addresses` when given. */
export function pinnedWebhookFetch(options: PinnedFetchOptions = {}): WebhookFetch {
  return (request) =>
    new Promise<Response>((resolve, reject) => {
      const url = new URL(request.url)
      const secure = url.protocol === 'https:'
      const send = secure ? httpsRequest : httpRequest
      const outgoing = send(
        url,
        {
          method: 'POST',
          headers: {
            ...request.headers,
            'content-length': String(Buffer.byteLength(request.body)),
          },
          signal: request.signal,
          agent: false,
          ...(request.addresses ? { lookup: pinnedLookup(request.addresses) } : {}),
          ...(secure && options.ca ? { ca: options.ca } : {}),
        },
        (incoming) => {
          try {
            resolve(asResponse(incoming))
          } catch (error) {
            incoming.destroy()
            reject(error)
          }
        },
      )
      outgoing.on('error', reject)
      outgoing.end(request.body)
    })
}

/**
 * A `lookup` that answers `addresses` whatever it is asked: all of them when Node wants every
 * address (its happy-eyeballs connect tries them in turn), else the first of the family asked.
 */
export function pinnedLookup(addresses: readonly string[]): LookupFunction {
  const entries: LookupAddress[] = addresses.map((address) => ({ address, family: isIP(address) }))
  return (hostname, options, callback) => {
    const family = options.family === 'IPv4' ? 4 : options.family === 'IPv6' ? 6 : options.family
    const fitting =
      family === 4 || family === 6 ? entries.filter((e) => e.family === family) : entries
    const first = fitting[0]
    if (!first) {
      const error: NodeJS.ErrnoException = new Error(
        `no checked IPv${family} address for ${hostname}`,
      )
      error.code = 'ENOTFOUND'
      callback(error, '', 0)
    } else if (options.all) callback(null, fitting)
    else callback(null, first.address, first.family)
  }
}

/** The answer as a Web `Response`: its status and body (the sender reads no header). */
function asResponse(incoming: IncomingMessage): Response {
  const status = incoming.statusCode ?? 0
  // A Response with these statuses may have no body; the Response constructor refuses a status
  // outside 200–599 (a hostile receiver's), which the attempt records as its error.
  const bodyless = status === 204 || status === 205 || status === 304
  if (bodyless) incoming.resume()
  const body = bodyless ? null : (Readable.toWeb(incoming) as ReadableStream<Uint8Array>)
  return new Response(body, { status })
}
