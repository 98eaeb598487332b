/**
 * The largest body each kind of route reads. The helpers that hold a request to one before
 * anything parses it (`holdBody`, `bodyLimit`) are in src/lib/bounded-body.ts, shared with the
 * simulator.
 */

/**
 * Public forms: the checkout (name, phone, e-mail, amount, reference, tokens, the captcha's
 * solution) and the dashboard login. Under 2 KB in use; the margin is for long Arabic names
 * percent-encoded (six bytes a letter).
 */
export const PUBLIC_FORM_BODY_LIMIT = 16 * 1024

/**
 * The signed-in dashboard's forms, read only once the session cookie is verified. The link form
 * with every field at its maximum in Arabic (50 invoice items of 200 letters, the 2,000-letter
 * texts) is 93 KB percent-encoded; 50 items of everyday length, 14 KB.
 */
export const DASHBOARD_FORM_BODY_LIMIT = 128 * 1024

/**
 * The settings page's logo upload (multipart): the logo is at most 256 KiB (LOGO_MAX_BYTES), and a
 * file up to twice that is still read so that the page can say it is too large beside the field.
 */
export const LOGO_FORM_BODY_LIMIT = 512 * 1024

/** The dashboard path whose form carries the logo. */
export const LOGO_FORM_PATH = '/dashboard/settings/logo'

/**
 * Whether a dashboard path carries an image upload (the logo's, or a product's at
 * `/dashboard/products/:id/image`): read up to LOGO_FORM_BODY_LIMIT, the images being held to
 * the logo's size.
 */
export function isImageFormPath(path: string): boolean {
  return path === LOGO_FORM_PATH || /^\/dashboard\/products\/[^/]+\/image$/.test(path)
}

/** The merchant API's JSON bodies: a link with every field at its maximum in Arabic is 35 KB. */
export const API_JSON_BODY_LIMIT = 64 * 1024

/** The gateway's webhook deliveries: a signed event of a few hundred bytes. */
export const WEBHOOK_BODY_LIMIT = 64 * 1024
