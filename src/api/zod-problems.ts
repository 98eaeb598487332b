/**
 * The one place zod issues become problem codes: by the issue's code, origin and format, by the
 * `params` a custom refinement carries (`{ code: 'not_clean_text' }`), and, for a value of the
 * wrong type, by the code its schema names in `error` (a code, never words). Parse with
 * PARSE_OPTIONS so a missing field can be told from a wrong one.
 */
import type * as z from 'zod'
import { type FieldProblems, isProblemCode, type Problem } from '../domain/problems.js'

/** safeParse options: the input stays on each issue, so an absent field reads as `required`. */
export const PARSE_OPTIONS = { reportInput: true } as const

type Issue = z.core.$ZodIssue

function wrongType(issue: Extract<Issue, { code: 'invalid_type' }>): Problem {
  if (issue.input === undefined) return { code: 'required' }
  if (issue.expected === 'int') return { code: 'not_whole' }
  if (isProblemCode(issue.message)) return { code: issue.message }
  switch (issue.expected) {
    case 'string':
      return { code: 'not_text' }
    case 'boolean':
      return { code: 'not_boolean' }
    case 'array':
      return { code: 'not_list' }
    case 'object':
      return { code: 'not_item' }
    default:
      return { code: 'invalid' }
  }
}

/** The problem one issue stands for. */
export function problemOf(issue: Issue): Problem {
  switch (issue.code) {
    case 'invalid_type':
      return wrongType(issue)
    case 'too_small': {
      const min = Number(issue.minimum)
      if (issue.origin === 'string') return { code: 'empty' }
      if (issue.origin === 'array') return { code: 'too_few_items', params: { min } }
      return { code: 'too_small', params: { min } }
    }
    case 'too_big': {
      const max = Number(issue.maximum)
      if (issue.origin === 'string') return { code: 'too_long', params: { max } }
      if (issue.origin === 'array') return { code: 'too_many_items', params: { max } }
      return { code: 'too_big', params: { max } }
    }
    case 'invalid_value':
      return { code: 'not_one_of', params: { values: issue.values.map(String).join(', ') } }
    case 'invalid_format':
      if (issue.format === 'url') return { code: 'bad_url' }
      if (issue.format === 'datetime') return { code: 'bad_datetime' }
      return { code: 'invalid' }
    case 'invalid_key': {
      // A record's key (metadata): too long, or not made of the characters keys may hold.
      const inner = issue.issues[0]
      if (inner?.code === 'too_big')
        return { code: 'key_too_long', params: { max: Number(inner.maximum) } }
      return { code: 'bad_key' }
    }
    case 'custom': {
      const { code, ...params } = issue.params ?? {}
      if (!isProblemCode(code)) return { code: 'invalid' }
      return Object.keys(params).length > 0 ? { code, params } : { code }
    }
    default:
      return { code: 'invalid' }
  }
}

/** A field path as the API names it: `invoice_items[0].quantity`. */
export function pathText(path: readonly PropertyKey[]): string {
  return path
    .map((p, i) => (typeof p === 'number' ? `[${p}]` : i === 0 ? String(p) : `.${String(p)}`))
    .join('')
}

/** Turns zod issues into the first problem of each field; a whole input that is wrong is `body`. */
export function fieldProblems(error: z.ZodError): FieldProblems {
  // No prototype: a stray `constructor` or `__proto__` key is reported like any other.
  const out: FieldProblems = Object.create(null)
  for (const issue of error.issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys)
        out[pathText([...issue.path, key])] ??= { code: 'unknown_field' }
      continue
    }
    // A bad key is the object's problem: the key itself is not a field's name.
    const path = pathText(issue.code === 'invalid_key' ? issue.path.slice(0, -1) : issue.path)
    if (path === '') out.body ??= { code: 'not_object' }
    else out[path] ??= problemOf(issue)
  }
  return out
}
