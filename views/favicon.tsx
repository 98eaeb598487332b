/**
 * Paylinks' favicon: a card on a blue tile, as SVG (under 300 bytes). Its address carries a hash
 * of its bytes, so it is cached for a year and a changed icon gets a new address.
 */
import { sha256HexOf } from '../src/lib/sha256-sync.js'

export const FAVICON_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="7" fill="#0b5cad"/><rect x="5.5" y="9" width="21" height="14.5" rx="2.5" fill="none" stroke="#fff" stroke-width="2.2"/><path d="M5.5 14h21" stroke="#fff" stroke-width="2.8"/><path d="M9.5 19.5h5" stroke="#fff" stroke-width="2"/></svg>'

/** Where pages link the icon: `/favicon-<8 hex of its SHA-256>.svg`. */
export const FAVICON_PATH = `/favicon-${sha256HexOf(FAVICON_SVG).slice(0, 8)}.svg`

/** The `<link>` every page's head carries. */
export function FaviconLink() {
  return <link rel="icon" type="image/svg+xml" href={FAVICON_PATH} />
}
