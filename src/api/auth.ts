/**
 * Authentication of the merchant API: the admin token in `X-API-Key` or as an
 * `Authorization: Bearer` token, compared in constant time with the stored hash.
 */
import type { Context, MiddlewareHandler } from 'hono'
import type { AppEnv } from '../env.js'
import { checkAdminToken } from '../security/tokens.js'
import { apiError } from './errors.js'

/** The token a request presents, from either header; undefined when there is none. */
export function presentedToken(c: Context<AppEnv>): string | undefined {
  const apiKey = c.req.header('x-api-key')
  if (apiKey !== undefined) return apiKey.trim()
  const match = /^Bearer[ \t]+(\S+)\s*$/i.exec(c.req.header('authorization') ?? '')
  return match?.[1]
}

/** Lets a request through only with the admin token; otherwise 401 with `WWW-Authenticate`. */
export function requireApiKey(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const token = presentedToken(c)
    if (token !== undefined && (await checkAdminToken(token, c.get('secrets').adminTokenHash))) {
      return next()
    }
    c.header('WWW-Authenticate', 'Bearer realm="paylinks"')
    return apiError(
      c,
      401,
      'unauthorized',
      token === undefined
        ? 'Send the admin token in the X-API-Key header or as Authorization: Bearer <token>.'
        : 'The token is not the admin token.',
    )
  }
}
