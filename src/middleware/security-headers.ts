import type { MiddlewareHandler } from 'hono'
import { NONCE, secureHeaders } from 'hono/secure-headers'
import type { AppEnv } from '../env.js'

/**
 * A strict Content-Security-Policy with a per-request nonce for the inline style and script of
 * each page, and the usual security headers. `formTargets` are the origins a form may end up at:
 * the checkout form answers with a 303 to the card network's page, and browsers apply
 * `form-action` to that redirect too.
 */
export function securityHeaders(formTargets: string[]): MiddlewareHandler<AppEnv> {
  return secureHeaders({
    contentSecurityPolicy: {
      defaultSrc: ["'none'"],
      baseUri: ["'none'"],
      scriptSrc: ["'self'", NONCE],
      styleSrc: ["'self'", NONCE],
      imgSrc: ["'self'", 'data:'],
      fontSrc: ["'self'"],
      connectSrc: ["'self'"],
      workerSrc: ["'self'", 'blob:'],
      formAction: ["'self'", ...formTargets],
      frameAncestors: ["'none'"],
      objectSrc: ["'none'"],
    },
    referrerPolicy: 'no-referrer',
    crossOriginEmbedderPolicy: false,
    strictTransportSecurity: 'max-age=31536000; includeSubDomains',
    permissionsPolicy: { camera: [], microphone: [], geolocation: [], payment: [] },
  })
}
