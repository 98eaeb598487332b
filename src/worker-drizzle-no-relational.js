/**
 * The Worker's stand-in for drizzle's relational queries (`db.query.*`), which Paylinks does not
 * use: every query is written with the SQL-like builder (`db.select()…`). wrangler.toml's [alias]
 * points drizzle's own imports of `relations.js` (from its D1 driver and SQLite dialect) and of the
 * relational query builder (from its SQLite database class) here. The Worker gives drizzle no
 * schema (src/worker-handler.ts), so drizzle never builds the relational configuration nor a
 * `db.query` table; what the dialect's relational-query method names is kept, and throws if that
 * method ever runs. test/worker/bundle.test.ts checks drizzle's relations code is not in the upload.
 */

function unavailable() {
  throw new Error(
    "drizzle's relational queries are not part of the Worker (see src/worker-drizzle-no-relational.js)",
  )
}

const entityKind = Symbol.for('drizzle:entityKind')

/** Only their identity is used (`is(relation, One)`), by the relational query builder. */
// biome-ignore lint/complexity/noStaticOnlyClass: drizzle's is() tests `instanceof` against it
export class One {
  static [entityKind] = 'One'
}
// biome-ignore lint/complexity/noStaticOnlyClass: as above
export class Many {
  static [entityKind] = 'Many'
}

export {
  unavailable as extractTablesRelationalConfig,
  unavailable as createTableRelationsHelpers,
  unavailable as getOperators,
  unavailable as getOrderByOperators,
  unavailable as normalizeRelation,
  unavailable as RelationalQueryBuilder,
}
