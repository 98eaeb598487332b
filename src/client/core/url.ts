/** URL building: base + path without losing the base's own path, encoded segments and queries. */
import { ValidationError } from './errors.js'

/** A query value; `undefined` leaves the parameter out. */
export type QueryValue = string | number | boolean | undefined
export type Query = Record<string, QueryValue>

/** Joins a base URL (which may carry a path such as `/_sim` or `/v1`) and a relative path. */
export function joinUrl(base: string, path: string): string {
  return `${base.replace(/\/+$/, '')}/${path.replace(/^\/+/, '')}`
}

/**
 * A path with every interpolated value encoded as one segment, e.g.
 * `encodePath\`services/operation-detail/${id}/\``. Dot segments are refused because a URL
 * parser would resolve them and leave the intended resource.
 */
export function encodePath(strings: TemplateStringsArray, ...values: (string | number)[]): string {
  let out = strings[0] ?? ''
  values.forEach((value, i) => {
    const text = String(value)
    if (text === '.' || text === '..' || text === '') {
      throw new ValidationError({ id: ['must be a non-empty identifier other than . and ..'] })
    }
    out += encodeURIComponent(text) + (strings[i + 1] ?? '')
  })
  return out
}

/**
 * A query string (with its leading `?`, or empty) in the given key order. Spaces become `%20`
 * rather than `+`, which every server decodes the same way.
 */
export function buildQuery(query: Query | undefined): string {
  if (!query) return ''
  const parts: string[] = []
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined) continue
    parts.push(`${encodeURIComponent(key)}=${encodeURIComponent(String(value))}`)
  }
  return parts.length > 0 ? `?${parts.join('&')}` : ''
}
