/**
 * Where a checkout's customer goes back to the shop: its `success_url` once paid, its `cancel_url`
 * otherwise, each with `checkout_id=chk_…` added so the shop knows which order came back.
 */

/** The parameter naming the checkout in the shop's URLs (product.md, "Shops"). */
export const CHECKOUT_ID_PARAM = 'checkout_id'

/**
 * `url` with `checkout_id=<id>` added to its query, or null when it is not an absolute http(s)
 * URL (redirects after payment go nowhere else, whatever was stored). The shop's own query is kept
 * byte for byte (re-encoding it could change what the shop reads) and the fragment stays last,
 * where a browser keeps it; a `checkout_id` the shop put there itself is left and ours follows it.
 */
export function shopUrl(url: string | null | undefined, checkoutId: string): string | null {
  if (!url) return null
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    return null
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return null
  const hash = url.indexOf('#')
  const beforeHash = hash < 0 ? url : url.slice(0, hash)
  const fragment = hash < 0 ? '' : url.slice(hash)
  const join = !beforeHash.includes('?') ? '?' : /[?&]$/.test(beforeHash) ? '' : '&'
  return `${beforeHash}${join}${CHECKOUT_ID_PARAM}=${encodeURIComponent(checkoutId)}${fragment}`
}
