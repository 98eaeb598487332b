/** Option values checked on the command line, with usage errors that name the option. */
import { CliError } from './output.js'

/** A positive whole number (`--limit 20`). */
export function wholeNumber(name: string, text: string): number {
  if (!/^\d{1,9}$/.test(text.trim()) || Number(text) < 1)
    throw new CliError(`${name} must be a whole number of at least 1`, 2)
  return Number(text)
}
