/**
 * The Worker's stand-in for the two pieces of drizzle's PostgreSQL module that its shared code
 * imports (wrangler.toml's [alias] points drizzle's own imports of them here), which brought
 * pg-core's column and table builders into a Worker that only speaks SQLite. Both answers are the
 * real ones for SQLite objects: nothing is a PostgreSQL enum, and nothing is a PostgreSQL primary
 * key (drizzle tells entities apart by their `entityKind`, which no SQLite class shares).
 */

/** `isPgEnum` of drizzle-orm/pg-core/columns/enum.js: there are none in SQLite. */
export function isPgEnum() {
  return false
}

/** Only its identity is used (`is(value, PrimaryKeyBuilder)`), never an instance. */
// biome-ignore lint/complexity/noStaticOnlyClass: drizzle's is() tests `instanceof` against it
export class PrimaryKeyBuilder {
  static [Symbol.for('drizzle:entityKind')] = 'PgPrimaryKeyBuilder'
}
