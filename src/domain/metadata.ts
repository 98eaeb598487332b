/**
 * A merchant's metadata: string keys to string values a shop attaches to a link (its order id, a
 * customer number) and finds again on every payment made from it, in the API, the outbound events
 * and the CSV. Paylinks never acts on it. The limits are the API's contract (product.md).
 */

/** At most this many keys on one object. */
export const METADATA_MAX_KEYS = 20
/** A key: 1 to 40 of letters, digits, `_`, `.` and `-`. */
export const METADATA_KEY_MAX = 40
export const METADATA_KEY_PATTERN = /^[A-Za-z0-9_.-]+$/
/** A value: at most 500 characters. */
export const METADATA_VALUE_MAX = 500

export type Metadata = Record<string, string>

/**
 * A change to stored metadata, read as Stripe's: each key given a text sets it, a key given ""
 * removes it, keys left out are kept; null removes every key. As JSON, it is an RFC 7396 merge
 * patch once "" is written null (see toMergePatch), which SQLite's json_patch applies.
 */
export type MetadataPatch = Metadata | null

/** The patch as an RFC 7396 merge patch: a removed key is null. */
export function toMergePatch(patch: Metadata): Record<string, string | null> {
  const out: Record<string, string | null> = {}
  for (const [key, value] of Object.entries(patch)) out[key] = value === '' ? null : value
  return out
}

/** Metadata without the keys whose value is "" (on a new object, "" means no such key). */
export function withoutEmpty(metadata: Metadata): Metadata {
  return Object.fromEntries(Object.entries(metadata).filter(([, value]) => value !== ''))
}

/**
 * Stored metadata read back leniently: text that is not a JSON object reads as none, and a key
 * whose value is not text is left out, so one row written by other means cannot make every page
 * that lists links or payments fail.
 */
export function readMetadata(text: string | null | undefined): Metadata {
  if (!text) return {}
  try {
    const value: unknown = JSON.parse(text)
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return {}
    const out: Metadata = {}
    for (const [key, item] of Object.entries(value)) if (typeof item === 'string') out[key] = item
    return out
  } catch {
    return {}
  }
}
