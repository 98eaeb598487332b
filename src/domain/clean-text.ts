/**
 * The one rule for text a person or a script sends: it must be text. Refused are control
 * characters (tab and line breaks only in fields that take several lines), lone surrogates, the
 * noncharacters U+FFFE/U+FFFF, and U+FFFD: the replacement character is what invalid UTF-8 (raw
 * 0xFF bytes, or %FF in a form) becomes once decoded, so refusing it refuses invalid bytes.
 */
import type { ProblemCode } from './problems.js'

// \p{Cc}: the C0 controls, DEL and the C1 controls; the multi-line form lets tab, LF, CR through.
const CONTROL_ONE_LINE = /\p{Cc}/u
const CONTROL_MULTI_LINE = /(?![\t\n\r])\p{Cc}/u
// With the u flag, \p{Cs} matches only a surrogate that is not half of a pair.
const NOT_TEXT = /[\p{Cs}\ufffd\ufffe\uffff]/u

/** How the API words the rule after the field's name (its `not_clean_text` message). */
export const CLEAN_TEXT_RULE = 'must be plain text: no control characters and no invalid UTF-8'

/** True when the text holds only characters a field of this kind may store. */
export function isCleanText(text: string, opts: { multiline?: boolean } = {}): boolean {
  const control = opts.multiline ? CONTROL_MULTI_LINE : CONTROL_ONE_LINE
  return !control.test(text) && !NOT_TEXT.test(text)
}

/**
 * The rule as the arguments of a zod `.refine`, for every text field of every input schema:
 * `z.string().trim().refine(...cleanText())`. `multiline` lets tab and line breaks through. A
 * refused value is the problem `not_clean_text`.
 */
export function cleanText(multiline = false) {
  const problem = { params: { code: 'not_clean_text' satisfies ProblemCode } }
  return [(value: string) => isCleanText(value, { multiline }), problem] as const
}
