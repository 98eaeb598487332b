/**
 * Reading the OpenAPI document for people: JSON Schemas as short type texts and field tables,
 * and a curl command per operation. Pure functions; the docs page renders what they return.
 */
import type {
  HttpMethod,
  JsonSchema,
  OpenApiDocument,
  OpenApiOperation,
  OpenApiResponse,
  OpenApiResponseOrRef,
} from './openapi-types.js'

const PREFIX = '#/components/schemas/'

/** The component name a `$ref` points at, if it is one. */
export function refName(schema: JsonSchema | undefined): string | undefined {
  const ref = schema?.$ref
  return typeof ref === 'string' && ref.startsWith(PREFIX) ? ref.slice(PREFIX.length) : undefined
}

/** Follows a `$ref` into `components.schemas`. */
export function resolveSchema(doc: OpenApiDocument, schema: JsonSchema): JsonSchema {
  const name = refName(schema)
  return name ? (doc.components.schemas[name] ?? {}) : schema
}

/** Follows a `$ref` into `components.responses`. */
export function resolveResponse(doc: OpenApiDocument, r: OpenApiResponseOrRef): OpenApiResponse {
  if (!('$ref' in r)) return r
  const name = r.$ref.replace('#/components/responses/', '')
  return doc.components.responses[name] ?? { description: name }
}

const asSchemas = (v: unknown): JsonSchema[] => (Array.isArray(v) ? (v as JsonSchema[]) : [])

/** A short type text: `string`, `integer`, `one of ar, fr, en`, `list of Link`, `number or null`. */
export function typeText(schema: JsonSchema): string {
  const name = refName(schema)
  if (name) return name
  if (Array.isArray(schema.enum)) return `one of ${schema.enum.join(', ')}`
  if ('const' in schema) return JSON.stringify(schema.const)
  const variants = asSchemas(schema.anyOf ?? schema.oneOf)
  if (variants.length > 0) return [...new Set(variants.map(typeText))].join(' or ')
  if (Array.isArray(schema.type)) return schema.type.join(' or ')
  if (schema.type === 'array') {
    const items = schema.items as JsonSchema | undefined
    return items ? `list of ${typeText(items)}` : 'list'
  }
  if (typeof schema.format === 'string')
    return `${String(schema.type ?? 'string')} (${schema.format})`
  return typeof schema.type === 'string' ? schema.type : 'any'
}

const SAFE_LIMIT = 9_007_199_254_740_991

/** The rules of a schema worth telling a person: lengths, bounds, list sizes. */
export function rulesText(schema: JsonSchema): string {
  const parts: string[] = []
  const n = (k: string) => (typeof schema[k] === 'number' ? (schema[k] as number) : undefined)
  const [minL, maxL] = [n('minLength'), n('maxLength')]
  if (minL !== undefined || maxL !== undefined)
    parts.push(
      maxL === undefined ? `at least ${minL} characters` : `${minL ?? 0}–${maxL} characters`,
    )
  const [min, max] = [n('minimum'), n('maximum')]
  if (min !== undefined && max !== undefined && Math.abs(min) < SAFE_LIMIT)
    parts.push(`${min}–${max}`)
  const [minI, maxI] = [n('minItems'), n('maxItems')]
  if (minI !== undefined || maxI !== undefined) parts.push(`${minI ?? 0}–${maxI ?? '∞'} items`)
  for (const v of asSchemas(schema.anyOf)) {
    const inner = rulesText(v)
    if (inner) parts.push(inner)
  }
  return parts.join('; ')
}

export type FieldRow = {
  name: string
  type: string
  required: boolean
  rules: string
  description: string
}

/** Rows of an object schema's fields; nested objects and lists of objects get `a.b` / `a[].b` rows. */
export function fieldRows(doc: OpenApiDocument, schema: JsonSchema, prefix = ''): FieldRow[] {
  const resolved = resolveSchema(doc, schema)
  const properties = (resolved.properties ?? {}) as Record<string, JsonSchema>
  const required = new Set(Array.isArray(resolved.required) ? resolved.required : [])
  const rows: FieldRow[] = []
  for (const [key, field] of Object.entries(properties)) {
    const name = `${prefix}${key}`
    const description = [field.description, ...asSchemas(field.anyOf).map((v) => v.description)]
      .filter((d): d is string => typeof d === 'string')
      .join(' ')
    rows.push({
      name,
      type: typeText(field),
      required: required.has(key),
      rules: rulesText(field),
      description,
    })
    for (const inner of [field, ...asSchemas(field.anyOf)]) {
      if (inner.type === 'object' && inner.properties)
        rows.push(...fieldRows(doc, inner, `${name}.`))
      const items = inner.type === 'array' ? (inner.items as JsonSchema | undefined) : undefined
      if (items?.type === 'object') rows.push(...fieldRows(doc, items, `${name}[].`))
    }
  }
  return rows
}

// POSIX single quotes: nothing inside is interpreted; a quote itself is closed, escaped, reopened.
const shellQuote = (s: string) => `'${s.replaceAll("'", `'\\''`)}'`

/** A curl command for an operation, with its example path id, query and body. */
export function curlExample(
  doc: OpenApiDocument,
  path: string,
  method: HttpMethod,
  op: OpenApiOperation,
): string {
  let url = `${doc.servers[0]?.url ?? ''}${path}`
  const query = new URLSearchParams()
  for (const p of op.parameters ?? []) {
    if (p.example === undefined) continue
    const value = Array.isArray(p.example) ? p.example.join(',') : String(p.example)
    if (p.in === 'path') url = url.replace(`{${p.name}}`, encodeURIComponent(value))
    else query.set(p.name, value)
  }
  if (query.size > 0) url += `?${query}`
  const lines = [
    method === 'get'
      ? `curl ${shellQuote(url)}`
      : `curl -X ${method.toUpperCase()} ${shellQuote(url)}`,
  ]
  if (!op.security || op.security.length > 0) lines.push(`-H "X-API-Key: $ADMIN_TOKEN"`)
  const media = op.requestBody?.content['application/json']
  const example = media?.example ?? Object.values(media?.examples ?? {})[0]?.value
  if (example !== undefined) {
    lines.push(`-H 'Content-Type: application/json'`)
    lines.push(`-d ${shellQuote(JSON.stringify(example))}`)
  }
  return lines.join(' \\\n  ')
}
