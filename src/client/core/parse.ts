/**
 * Lenient reading of gateway answers. The gateway sends the same field as a number on one
 * endpoint and as a string on another (`"2"`, `2`, `"00"`, `0`); these helpers normalise without
 * failing, so a known field is typed and an unknown field is kept as received.
 */

/** Any JSON value. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json }

/** A JSON object whose fields are not described by the interface documents. */
export type JsonObject = Record<string, unknown>

/** True for a plain object (not an array, not null). */
export function isObject(value: unknown): value is JsonObject {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
}

/** A string from a string or a finite number; undefined otherwise. */
export function asString(value: unknown): string | undefined {
  if (typeof value === 'string') return value
  if (typeof value === 'number' && Number.isFinite(value)) return String(value)
  return undefined
}

/** A number from a number or a numeric string (`"2"`, `" -2007 "`); undefined otherwise. */
export function asNumber(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined
  if (typeof value === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(value)) return Number(value)
  return undefined
}

/** An integer from a number or an integer string; undefined otherwise. */
export function asInteger(value: unknown): number | undefined {
  const n = asNumber(value)
  return n !== undefined && Number.isSafeInteger(n) ? n : undefined
}

/** A boolean from `true`/`false`, `"true"`/`"false"` (any case) or `1`/`0`; undefined otherwise. */
export function asBoolean(value: unknown): boolean | undefined {
  if (typeof value === 'boolean') return value
  if (value === 1 || value === 0) return value === 1
  if (typeof value === 'string') {
    const v = value.trim().toLowerCase()
    if (v === 'true' || v === '1') return true
    if (v === 'false' || v === '0') return false
  }
  return undefined
}

/**
 * The gateway's error text, read from `error`, `message` or `detail` (each may be a string, an
 * object with `message`, or a list), or from a short plain-text body.
 */
export function readErrorMessage(body: unknown): string | undefined {
  if (typeof body === 'string') {
    const text = body.trim()
    // An HTML error page says nothing useful and would flood the message.
    if (text === '' || text.startsWith('<')) return undefined
    return text.length > 200 ? `${text.slice(0, 200)}…` : text
  }
  if (!isObject(body)) return undefined
  for (const key of ['error', 'message', 'detail', 'errorMessage']) {
    const text = messageOf(body[key])
    if (text) return text
  }
  return undefined
}

function messageOf(value: unknown): string | undefined {
  if (typeof value === 'string') return value.trim() || undefined
  if (Array.isArray(value)) {
    const parts = value.map(messageOf).filter((v): v is string => v !== undefined)
    return parts.length > 0 ? parts.join('; ') : undefined
  }
  if (isObject(value)) return messageOf(value.message) ?? messageOf(value.detail)
  return undefined
}

/** An error code from `code` or `error_code`, as text. */
export function readErrorCode(body: unknown): string | undefined {
  if (!isObject(body)) return undefined
  return asString(body.code) ?? asString(body.error_code) ?? asString(body.errorCode)
}
