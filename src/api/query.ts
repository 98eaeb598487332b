/** Parsing a query string with a zod schema into values or field errors that name the parameter. */
import type { Context } from 'hono'
import type * as z from 'zod'
import type { AppEnv } from '../deps.js'

export type QueryResult<T> = { ok: true; value: T } | { ok: false; fields: Record<string, string> }

/** Reads the query (a repeated name gives a list) and parses it; unknown names are errors too. */
export function parseQuery<S extends z.ZodType>(
  c: Context<AppEnv>,
  schema: S,
): QueryResult<z.output<S>> {
  // Without a prototype, `constructor` or `__proto__` in a query is a name like any other.
  const raw: Record<string, string | string[]> = Object.create(null)
  for (const [name, values] of Object.entries(c.req.queries())) {
    raw[name] = values.length === 1 ? values[0]! : values
  }
  const parsed = schema.safeParse(raw)
  if (parsed.success) return { ok: true, value: parsed.data }
  const fields: Record<string, string> = Object.create(null)
  for (const issue of parsed.error.issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) fields[key] ??= `${key} is not a query parameter of this route`
      continue
    }
    const name = String(issue.path[0] ?? 'query')
    fields[name] ??= `${name} ${issue.message}`
  }
  return { ok: false, fields }
}
