/**
 * The client's address on Node, which the throttles count by (checkout submissions,
 * wrong admin tokens, link writes). Behind a reverse proxy every connection comes from the proxy:
 * with TRUST_PROXY the address the proxy saw is taken from the end of `X-Forwarded-For`.
 */
import { isIP } from 'node:net'
import { getConnInfo } from '@hono/node-server/conninfo'
import type { Context } from 'hono'

/**
 * The last address of an `X-Forwarded-For` value: the one the nearest proxy appended (Caddy and
 * nginx's `$proxy_add_x_forwarded_for` both add the peer they saw last); undefined when it is
 * missing or not an IP address. Earlier entries come from the client and prove nothing.
 */
export function lastForwardedAddress(header: string | undefined): string | undefined {
  const last = header?.split(',').at(-1)?.trim()
  return last && isIP(last) ? last : undefined
}

/** `clientIp` for the app: the socket's peer, or behind a trusted proxy the address it forwarded. */
export function nodeClientIp(trustProxy: boolean): (c: Context) => string {
  return (c) => {
    const forwarded = trustProxy ? lastForwardedAddress(c.req.header('x-forwarded-for')) : undefined
    return forwarded ?? getConnInfo(c).remote.address ?? 'unknown'
  }
}
