/**
 * What a restored database may hold: exactly the schema this version's migrations make, up to the
 * last migration the copy records. A trigger, view, table, column or index added by hand would
 * run inside the server after the restore (a trigger that promotes the next invited person to
 * owner), and a schema missing parts would stop the server at start; both are refused here, by
 * name. A copy from an older version is compared with the migrations it has applied, and the
 * server applies the rest when it next opens it.
 */
import Database from 'better-sqlite3'
import { readMigrationFiles } from 'drizzle-orm/migrator'
import { MIGRATIONS_FOLDER } from './database.js'

/** One entry of `sqlite_master`, with its columns when it is a table. */
interface SchemaEntry {
  type: string
  name: string
  sql: string
  columns: string[]
}

/**
 * drizzle's own bookkeeping: its definition is drizzle's, which can change between versions of
 * drizzle, so only its presence is required (checkBackup). Triggers and indexes on it are
 * compared like any other.
 */
const MIGRATIONS_TABLE = '__drizzle_migrations'
// SQLite's own statistics (`ANALYZE`, `PRAGMA optimize`) hold no data of Paylinks and may be in any
// copy that was analysed: like drizzle's table, they are not compared.
const skipped = (entry: { type: string; name: string }) =>
  (entry.type === 'table' && entry.name === MIGRATIONS_TABLE) ||
  (entry.type === 'table' && /^sqlite_stat\d$/.test(entry.name)) ||
  (entry.type === 'index' && entry.name.startsWith(`sqlite_autoindex_${MIGRATIONS_TABLE}_`))

/** The schema of `db`, by `type name`. */
function schemaOf(db: Database.Database): Map<string, SchemaEntry> {
  const rows = db
    .prepare("SELECT type, name, sql FROM sqlite_master WHERE name <> 'sqlite_master'")
    .all() as { type: string; name: string; sql: string | null }[]
  const schema = new Map<string, SchemaEntry>()
  for (const row of rows) {
    if (skipped(row)) continue
    const columns =
      row.type === 'table'
        ? (db.prepare('SELECT * FROM pragma_table_xinfo(?)').all(row.name) as Column[]).map(
            (c) => `${c.name} ${c.type} notnull=${c.notnull} default=${c.dflt_value} pk=${c.pk}`,
          )
        : []
    schema.set(`${row.type} ${row.name}`, {
      type: row.type,
      name: row.name,
      // Spacing apart, the text SQLite stored for the statement that made it.
      sql: (row.sql ?? '').replace(/\s+/g, ' ').trim(),
      columns,
    })
  }
  return schema
}
type Column = { name: string; type: string; notnull: number; dflt_value: unknown; pk: number }

/** The schema the migrations of this version up to `lastApplied` (their `when`) make. */
export function migratedSchema(lastApplied: number): Map<string, SchemaEntry> {
  const db = new Database(':memory:')
  try {
    for (const migration of readMigrationFiles({ migrationsFolder: MIGRATIONS_FOLDER }))
      if (migration.folderMillis <= lastApplied) for (const part of migration.sql) db.exec(part)
    return schemaOf(db)
  } finally {
    db.close()
  }
}

/**
 * How the schema of `db` differs from what the migrations up to `lastApplied` make, in words
 * ("extra trigger users_promote", "missing table payments", "extra column users.note"); empty
 * when it is the same.
 */
export function schemaDifferences(db: Database.Database, lastApplied: number): string[] {
  const actual = schemaOf(db)
  const expected = migratedSchema(lastApplied)
  // What was added first: that is what would run in the server.
  const differences: string[] = []
  for (const [key, have] of actual)
    if (!expected.has(key)) differences.push(`extra ${have.type} ${have.name}`)
  for (const [key, want] of expected) {
    const have = actual.get(key)
    if (!have) differences.push(`missing ${want.type} ${want.name}`)
    else if (have.sql !== want.sql) differences.push(...changed(have, want))
  }
  return differences
}

/** What differs in an entry both have: a table's columns by name, else the entry as a whole. */
function changed(have: SchemaEntry, want: SchemaEntry): string[] {
  const name = (column: string) => column.slice(0, column.indexOf(' '))
  const wanted = new Map(want.columns.map((c) => [name(c), c]))
  const had = new Map(have.columns.map((c) => [name(c), c]))
  const out: string[] = []
  for (const [column, definition] of wanted) {
    const other = had.get(column)
    if (other === undefined) out.push(`missing column ${want.name}.${column}`)
    else if (other !== definition) out.push(`different column ${want.name}.${column}`)
  }
  for (const column of had.keys())
    if (!wanted.has(column)) out.push(`extra column ${want.name}.${column}`)
  // Same columns, other text: a constraint, a trigger's or view's body, an index's columns.
  return out.length > 0 ? out : [`different ${want.type} ${want.name}`]
}
