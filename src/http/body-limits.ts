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

/** The merchant API's JSON bodies: a link with every field at its maximum in Arabic is 35 KB. */
export const API_JSON_BODY_LIMIT = 64 * 1024

/** The gateway's webhook deliveries: a signed event of a few hundred bytes. */
export const WEBHOOK_BODY_LIMIT = 64 * 1024
