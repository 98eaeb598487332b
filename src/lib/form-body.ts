/**
 * Reading a form body without ever failing with a 500. `parseBody` throws on a multipart body
 * that does not parse (no boundary, a broken part); no browser sends one, so such a body reads as
 * a form with no fields, which every form handler already refuses with its own 4xx (the form
 * token is missing) and without changing anything.
 */
import type { Context } from 'hono'

/** The request's form fields; none when the body is not a form that parses. */
export async function readForm(c: Context): Promise<Record<string, string | File>> {
  try {
    return (await c.req.parseBody()) as Record<string, string | File>
  } catch {
    return {}
  }
}
