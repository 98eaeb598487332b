/** Amounts on the command line: typed as DZD text, integer centimes inside, DZD numbers on the API. */
import { centimesToDzd, centimesToDzdNumber, parseDzd } from '../../../lib/money.js'
import { CliError } from './output.js'

/** Parses `--name 1500` or `1299.50` (DZD) into centimes; a usage error names the option. */
export function dzdOption(name: string, text: string): number {
  const centimes = parseDzd(text)
  if (centimes === null)
    throw new CliError(
      `${name} must be an amount of DZD with at most two decimals, e.g. 1500 or 1299.50`,
      2,
    )
  return centimes
}

/** Centimes as the API's DZD number. */
export const apiDzd = (centimes: number) => centimesToDzdNumber(centimes)

/** An API DZD number as text with two decimals (`1500.00`), as a CSV cell takes it. */
export function dzdText(value: number | null | undefined): string | null {
  if (value === null || value === undefined) return null
  const centimes = parseDzd(value)
  return centimes === null ? String(value) : centimesToDzd(centimes)
}

/** An API DZD number as text for a table: `1500.00 DZD`. */
export function shownDzd(value: number | null | undefined): string | null {
  const text = dzdText(value)
  return text === null ? null : `${text} DZD`
}
