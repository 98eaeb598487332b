import type { MiddlewareHandler } from 'hono'

/**
 * `Cache-Control: no-store` on every answer behind it: the merchant API and the dashboard carry
 * payments, customers' names and e-mails, keys and secrets, which no browser, proxy or shared
 * cache may keep. Set after the handler, so error answers (thrown, 4xx, not found) carry it too.
 */
export const noStore: MiddlewareHandler = async (c, next) => {
  await next()
  c.header('Cache-Control', 'no-store')
}

/** Where `noStore` applies: the API (its document and docs page too: simpler than an exception) and the back office. */
export const NO_STORE_PATHS: readonly string[] = ['/api/*', '/dashboard', '/dashboard/*']
