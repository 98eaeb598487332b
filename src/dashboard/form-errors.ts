/**
 * The link rules answer in English for the API (`amount_min must be at least 50 DZD`). The
 * dashboard shows each error beside its field in the page's language, so known rules are mapped
 * to message keys here; a rule not listed is shown as the API words it, never dropped.
 */

import type { FieldErrors } from '../api/link-body.js'
import { CLEAN_TEXT_RULE } from '../domain/clean-text.js'
import type { FieldProblem, FormProblems } from './link-form.js'
import type { DashTranslate } from './messages.js'

const RULES: [RegExp, (m: RegExpExecArray) => FieldProblem][] = [
  [/^is required with invoice_id/, () => ({ key: 'errInvoiceAmount' })],
  [/^is required: give amount/, () => ({ key: 'errPricing' })],
  [/^(is required|must not be empty)$/, () => ({ key: 'errRequired' })],
  [/^must be at most (\d+) characters$/, (m) => ({ key: 'errMaxChars', params: { n: m[1]! } })],
  [/^must be at least 50 DZD$/, () => ({ key: 'errMinAmount' })],
  [/^must be at most 100000000 DZD$/, () => ({ key: 'errMaxAmount' })],
  [/^must be more than 0 DZD$/, () => ({ key: 'errPositive' })],
  [/^must be a whole number$/, () => ({ key: 'errWhole' })],
  [/^must be at least (\d+)$/, (m) => ({ key: 'errAtLeast', params: { n: m[1]! } })],
  [/^must be at most (\d+)$/, (m) => ({ key: 'errAtMost', params: { n: m[1]! } })],
  [/^must be an http:\/\/ or https:\/\/ URL$/, () => ({ key: 'errUrl' })],
  [/^must list at least one item$/, () => ({ key: 'errItemsNone' })],
  [/^must list at most 50 items$/, () => ({ key: 'errItemsMax' })],
  [/^must not be less than amount_min$/, () => ({ key: 'errMaxBelowMin' })],
  [/^total must be at least 50 DZD$/, () => ({ key: 'errItemsTotalMin' })],
  [/^total must be at most 100000000 DZD$/, () => ({ key: 'errItemsTotalMax' })],
  [/^must be in the future$/, () => ({ key: 'errFuture' })],
  [/^must be one of ar, fr, en$/, () => ({ key: 'errLanguage' })],
  [new RegExp(`^${CLEAN_TEXT_RULE}$`), () => ({ key: 'errText' })],
]

/** The form field an API field is shown next to. */
function formField(apiField: string): string {
  return apiField.startsWith('invoice_items') ? 'items' : apiField
}

function problemFor(rule: string, whole: string): FieldProblem {
  for (const [pattern, make] of RULES) {
    const m = pattern.exec(rule)
    if (m) return make(m)
  }
  return { key: 'errOther', params: { message: whole } }
}

/**
 * Maps the service's field errors onto form fields. An item's error (`invoice_items[1].quantity`)
 * goes to the items box with the line it came from (`itemLines[1]`).
 */
export function serviceProblems(errors: FieldErrors, itemLines: readonly number[]): FormProblems {
  const out: FormProblems = {}
  for (const [path, message] of Object.entries(errors)) {
    const item = /^invoice_items\[(\d+)\]\.(\w+)$/.exec(path)
    const field = formField(path)
    if (out[field]) continue
    // The API words an error as "<field path> <rule>"; the rule is what the person needs.
    const prefix = item ? path : path.split(/[[.]/)[0]!
    const rule = message.startsWith(`${prefix} `) ? message.slice(prefix.length + 1) : message
    const problem = problemFor(rule, message)
    out[field] = item
      ? {
          key: 'errLine',
          params: { line: itemLines[Number(item[1])] ?? Number(item[1]) + 1 },
          inner: problem,
        }
      : problem
  }
  return out
}

/** Translates problems for a page: `{ amount: 'At least 50 DA.' }`. */
export function translateProblems(
  problems: FormProblems,
  t: DashTranslate,
): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [field, problem] of Object.entries(problems)) {
    const inner = problem.inner
    out[field] = inner
      ? t(problem.key, { ...problem.params, message: t(inner.key, inner.params) })
      : t(problem.key, problem.params)
  }
  return out
}
