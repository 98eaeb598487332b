/**
 * Keeps credentials out of errors: the API key and the secret key must never reach a message, a
 * log line or a serialised error, even when the gateway echoes them back.
 */

export const REDACTED = '[redacted]'

const SECRET_QUERY = /([?&](?:encrypted_sk|api_key|apikey)=)[^&#]*/gi

/** A URL with the value of `encrypted_sk` (and any api key parameter) replaced. */
export function redactUrl(url: string): string {
  return url.replace(SECRET_QUERY, `$1${REDACTED}`)
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
