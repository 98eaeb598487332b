/**
 * Amounts as they come back from the database, made safe to show. A column of integer centimes
 * can hold whatever SQLite accepts: a 64-bit integer (read back as the nearest double, past 2^53),
 * a negative or zero amount, a real number, even text. Pages, exports and the API read them
 * through these functions, which never throw: one odd row must not take a whole list down.
 */
import { centimesToDzd } from '../lib/money.js'

/** A stored amount as whole centimes (a real number rounded), or null when it is not a number. */
export function storedCentimes(value: unknown): bigint | null {
  if (typeof value === 'bigint') return value
  if (typeof value !== 'number' || !Number.isFinite(value)) return null
  // Every double past 2^53 is whole, so BigInt takes it exactly; smaller ones are rounded first.
  return BigInt(Math.round(value))
}

/** A stored amount as DZD text with two decimals (`"1299.50"`), or '' when it is not a number. */
export function storedDzdText(value: unknown): string {
  const centimes = storedCentimes(value)
  return centimes === null ? '' : centimesToDzd(centimes)
}

/**
 * A stored amount as a JSON number of DZD. A value that is not a number gives NaN, which JSON
 * writes as null: the API says "unknown" rather than inventing an amount.
 */
export function storedDzdNumber(value: unknown): number {
  const centimes = storedCentimes(value)
  return centimes === null ? Number.NaN : Number(centimesToDzd(centimes))
}
