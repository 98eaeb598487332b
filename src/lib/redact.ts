/**
 * Keeps credentials and customer data out of errors: the API key, the secret key and a card
 * payment's name, phone and e-mail must never reach a message, a log line or a serialised error,
 * even when the gateway echoes them back.
 */

export const REDACTED = '[redacted]'

/**
 * A URL without its query and fragment. Errors name the request by this alone: a card payment's
 * query carries the customer's name, phone and e-mail, and the direct interface's `encrypted_sk`.
 */
export function withoutQuery(url: string): string {
  const cut = url.search(/[?#]/)
  return cut < 0 ? url : url.slice(0, cut)
}

// An absolute URL, then its query or fragment up to the next space, quote or bracket.
const URL_WITH_QUERY = /(\b[a-z][a-z0-9+.-]*:\/\/[^\s?#"'<>]*)[?#][^\s"'<>)]*/gi

/** A text with every URL in it cut before its query (a fetch failure may quote the URL it tried). */
export function stripUrlQueries(text: string): string {
  return text.replace(URL_WITH_QUERY, '$1')
}

/** Replaces every occurrence of each secret (and its URL-encoded form) in a text. */
export function scrubText(text: string, secrets: readonly string[]): string {
  let out = text
  for (const secret of secrets) {
    // Short values would blank out ordinary words; credentials are long.
    if (secret.length < 8) continue
    out = out.split(secret).join(REDACTED)
    const encoded = encodeURIComponent(secret)
    if (encoded !== secret) out = out.split(encoded).join(REDACTED)
  }
  return out
}

/** A deep copy of a JSON value with every secret scrubbed from its strings. */
export function scrubValue(value: unknown, secrets: readonly string[]): unknown {
  if (typeof value === 'string') return scrubText(value, secrets)
  if (Array.isArray(value)) return value.map((v) => scrubValue(v, secrets))
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {}
    for (const [k, v] of Object.entries(value)) {
      out[k] = k === 'encrypted_sk' ? REDACTED : scrubValue(v, secrets)
    }
    return out
  }
  return value
}
