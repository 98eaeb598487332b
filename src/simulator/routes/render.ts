/** Sending a simulator page. */
import type { Context } from 'hono'
import type { JSX } from 'hono/jsx/jsx-runtime'

// Standalone the simulator sends its own policy; mounted in Paylinks, the app's middleware may
// replace it. Forms may end at any http(s) return URL, which browsers check against form-action.
const CSP =
  "default-src 'none'; style-src 'self'; img-src 'self' data:; form-action 'self' http: https:; base-uri 'none'; frame-ancestors 'none'"

/** Answers an HTML page with a doctype and no caching. */
export async function renderPage(c: Context, page: JSX.Element, status: 200 | 400 | 404 = 200) {
  c.header('cache-control', 'no-store')
  c.header('content-security-policy', CSP)
  c.header('referrer-policy', 'no-referrer')
  c.header('x-content-type-options', 'nosniff')
  return c.html(`<!DOCTYPE html>${await page}`, status)
}
