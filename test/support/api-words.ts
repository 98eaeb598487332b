/** The link rules' answers with each problem worded as the merchant API words it. */
import { apiFieldMessages } from '../../src/api/problem-messages.js'
import type { Parsed } from '../../src/domain/link-rules.js'

export type Worded<T> = { ok: true; value: T } | { ok: false; errors: Record<string, string> }

/** `{ ok: false, problems }` becomes `{ ok: false, errors: { title: 'title is required' } }`. */
export function inApiWords<T>(result: Parsed<T>): Worded<T> {
  return result.ok ? result : { ok: false, errors: apiFieldMessages(result.problems) }
}
