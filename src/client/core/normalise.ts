/**
 * Normalises known fields of a gateway object to their documented types while keeping every
 * other field as received. A known field whose value cannot be read as its type becomes
 * undefined rather than lying about its type.
 */
import { asBoolean, asInteger, asNumber, asString, isObject, type JsonObject } from './parse.js'

type Kind = 'string' | 'number' | 'integer' | 'boolean'
/** A field's documented type; `?` allows null (kept as null). */
export type FieldKind = Kind | `${Kind}?`

const READERS: Record<Kind, (v: unknown) => unknown> = {
  string: asString,
  number: asNumber,
  integer: asInteger,
  boolean: asBoolean,
}

/** A copy of `value` (an object, else `{}`) with the fields of `spec` converted. */
export function normalise(value: unknown, spec: Record<string, FieldKind>): JsonObject {
  const source = isObject(value) ? value : {}
  const out: JsonObject = { ...source }
  for (const [key, kind] of Object.entries(spec)) {
    if (!(key in source)) continue
    const nullable = kind.endsWith('?')
    const raw = source[key]
    if (raw === null && nullable) continue
    out[key] = READERS[kind.replace('?', '') as Kind](raw)
  }
  return out
}

/** `value` as a list of normalised objects; anything that is not an array gives []. */
export function normaliseList(value: unknown, spec: Record<string, FieldKind>): JsonObject[] {
  return Array.isArray(value) ? value.map((item) => normalise(item, spec)) : []
}
