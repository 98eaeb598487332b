/**
 * The customer-facing URLs of links and receipts, under the configured public URL (a trailing
 * slash of it ignored). The API's objects, the gateway's return URL, the dashboard and its
 * exports all build them here.
 */

const base = (publicUrl: string) => publicUrl.replace(/\/+$/, '')

/** The customer-facing URLs of a link. */
export function linkUrls(publicUrl: string, slug: string) {
  const url = `${base(publicUrl)}/l/${encodeURIComponent(slug)}`
  return {
    url,
    qr_svg_url: `${url}/qr.svg`,
    qr_png_url: `${url}/qr.png`,
    poster_url: `${url}/poster`,
  }
}

/** The receipt URL of a payment (the gateway's `return_url` adds its id in the query: return-url.ts). */
export function receiptUrl(publicUrl: string, receiptId: string): string {
  return `${base(publicUrl)}/r/${encodeURIComponent(receiptId)}`
}
