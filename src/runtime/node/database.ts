/** Opens the SQLite database on Node: WAL, foreign keys, and the checked-in migrations applied. */
import { existsSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import Database from 'better-sqlite3'
import { type BetterSQLite3Database, drizzle } from 'drizzle-orm/better-sqlite3'
import { migrate } from 'drizzle-orm/better-sqlite3/migrator'
import type * as schema from '../../../db/schema.js'
import type { Config } from '../../config.js'
import type { Logger } from '../../log.js'
import {
  createPrivateFile,
  databaseFileNames,
  describeOpen,
  privateDirectory,
  tightenFiles,
} from './private-files.js'

/**
 * The migrations folder of this checkout, wherever the process was started from: the nearest
 * `db/migrations` above this module, which is four folders up in the sources
 * (src/runtime/node/) and two in the build (dist/server/, scripts/build.mjs).
 */
export const MIGRATIONS_FOLDER = migrationsFolder(dirname(fileURLToPath(import.meta.url)))

function migrationsFolder(from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    const candidate = join(dir, 'db', 'migrations')
    if (existsSync(candidate)) return candidate
    if (dirname(dir) === dir)
      return fileURLToPath(new URL('../../../db/migrations', import.meta.url))
  }
}

export type SqliteHandle = {
  db: BetterSQLite3Database<typeof schema>
  sqlite: Database.Database
  close: () => void
}

/**
 * The server's database (the same step as the Worker's `openDatabase`): the SQLite file of
 * DATABASE_PATH, migrated, with a warning in the log when others may read it.
 */
export function openDatabase(config: Pick<Config, 'databasePath'>, log: Logger): SqliteHandle {
  return openSqlite(config.databasePath, {
    warn: (detail) => log({ level: 'warn', event: 'database_open_to_others', detail }),
  })
}

/** The size the write-ahead log file is truncated to when it starts over. */
export const WAL_SIZE_LIMIT_BYTES = 64 * 1024 * 1024

/**
 * Options for tests and tools; production uses the defaults. `warn` hears of a database file or
 * directory others can read that is not Paylinks' to tighten (standard error by default).
 */
export type OpenOptions = {
  busyTimeoutMs?: number
  migrate?: boolean
  warn?: (text: string) => void
}

/**
 * Opens (creating if needed) the database file at `path`, in WAL mode so readers never block the
 * writer, with a busy timeout so concurrent writers wait instead of failing, and applies any
 * migration not yet applied.
 */
export function openSqlite(path: string, options: OpenOptions = {}): SqliteHandle {
  if (path !== ':memory:' && path !== '') keepPrivate(path, options.warn ?? warnOnStderr)
  const sqlite = new Database(path)
  sqlite.pragma(`busy_timeout = ${Math.trunc(options.busyTimeoutMs ?? 5000)}`)
  retrying(() => sqlite.pragma('journal_mode = WAL'))
  sqlite.pragma('synchronous = NORMAL')
  // A log that grew (a long burst of writes) is cut back to 64 MiB when it next starts over.
  sqlite.pragma(`journal_size_limit = ${WAL_SIZE_LIMIT_BYTES}`)
  sqlite.pragma('foreign_keys = ON')
  // No schema: drizzle would build its relational-query configuration (`db.query.*`), which
  // Paylinks never uses, at every start. Queries name their tables through the SQL-like builder,
  // as on the Worker (src/runtime/worker/database.ts); `db.query` stays in the type but is empty.
  const db = drizzle(sqlite) as unknown as SqliteHandle['db']
  if (options.migrate !== false) applyMigrations(db)
  return { db, sqlite, close: () => sqlite.close() }
}

const warnOnStderr = (text: string) => process.stderr.write(`${text}\n`)

/**
 * The database holds every secret Paylinks keeps (src/runtime/node/private-files.ts): its directory is
 * made 0700 and the file created 0600 before SQLite opens it, so the logs SQLite creates beside
 * it take the same mode. A file left looser by an older version is tightened, its logs too.
 */
function keepPrivate(path: string, warn: (text: string) => void): void {
  const dir = privateDirectory(dirname(path), databaseFileNames(path))
  if (dir) warn(`Paylinks database directory: ${describeOpen(dir)}`)
  if (createPrivateFile(path)) return
  for (const file of tightenFiles([path, `${path}-wal`, `${path}-shm`, `${path}-journal`]))
    warn(`Paylinks database: ${describeOpen(file)}`)
}

function applyMigrations(db: BetterSQLite3Database<typeof schema>): void {
  // Two processes opening a new file at once: drizzle's migrator reads the applied list before
  // it takes the write lock, so the slower one replays a migration the faster one committed (its
  // transaction rolls back), or finds the lock taken in a way the busy timeout cannot wait out.
  // Running again sees the migrations applied and does nothing.
  retrying(() => migrate(db, { migrationsFolder: MIGRATIONS_FOLDER }))
}

/** Runs `task`, again (a few times) when another connection was doing the same at that moment. */
function retrying<T>(task: () => T): T {
  for (let attempt = 1; ; attempt++) {
    try {
      return task()
    } catch (error) {
      const cause = (error as { cause?: { message?: unknown; code?: unknown } })?.cause
      const text = `${(error as Error)?.message} ${cause?.message} ${(error as { code?: unknown })?.code} ${cause?.code}`
      if (attempt >= 5 || !/already exists|SQLITE_BUSY|database is locked/.test(text)) throw error
      // Give the other connection a moment to commit (a synchronous pause: start-up only).
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 25 * attempt)
    }
  }
}
