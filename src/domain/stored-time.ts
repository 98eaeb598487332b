/**
 * Times as they come back from the database. A `*_at` column holds epoch milliseconds, but SQLite
 * stores any integer there, and JavaScript dates end 8.64e15 ms either side of 1970: past that,
 * `toISOString` and Intl throw. Readers check a stored time here first and show "none" instead.
 */

/** True when the value is a time a Date can hold (and so format). */
export function isShowableTime(value: unknown): value is number {
  return typeof value === 'number' && !Number.isNaN(new Date(value).getTime())
}
