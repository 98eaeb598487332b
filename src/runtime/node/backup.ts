/**
 * Backups of the SQLite database with SQLite's online backup API: a consistent copy taken while
 * the server keeps serving (WAL: readers never block the writer), and the checks a restore runs
 * on a copy before it replaces anything.
 */
import { existsSync, readFileSync, renameSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { schemaDifferences } from './backup-schema.js'
import { MIGRATIONS_FOLDER } from './database.js'
import { createPrivateFile, partialPathBeside } from './private-files.js'

/** What a finished backup copied. */
export interface BackupResult {
  path: string
  pages: number
}

/**
 * Copies the database open in `source` to `target` (replaced if it exists), readable by its owner
 * alone (it holds every secret the database does). From another process the copy is made in
 * one step, under one read transaction: a write by another connection
 * between steps would start SQLite's backup over, and a busy server could keep it from ever
 * finishing. The server's own connection steps through the file so its event loop never waits
 * long; its own writes are carried into the copy by SQLite as they happen. `check` runs on the
 * finished copy before it takes the target's name (a restore checks what it installs).
 */
export async function backupDatabase(
  source: Database.Database,
  target: string,
  options: { oneStep?: boolean; check?: (copy: string) => void } = {},
): Promise<BackupResult> {
  // Written beside the target, then renamed: a reader never sees half a copy under its name. It
  // is created 0600 before SQLite writes to it, and its journal follows that mode.
  const partial = partialPathBeside(target)
  try {
    createPrivateFile(partial)
    const result = await source.backup(partial, {
      progress: () => (options.oneStep === false ? 100 : 0x7fffffff),
    })
    // One self-contained file: the copy leaves WAL mode, so it has no -wal or -shm beside it
    // (a server that opens it switches back).
    const copy = new Database(partial)
    try {
      copy.pragma('journal_mode = DELETE')
    } finally {
      copy.close()
    }
    options.check?.(partial)
    renameSync(partial, target)
    return { path: target, pages: result.totalPages }
  } finally {
    rmSync(partial, { force: true })
  }
}

/** Copies the database file at `path` (opened read-only for the time of the copy). */
export async function backupFile(
  path: string,
  target: string,
  options: { check?: (copy: string) => void } = {},
): Promise<BackupResult> {
  if (!existsSync(path)) throw new BackupError(`No database at ${path}`)
  const source = new Database(path, { readonly: true, fileMustExist: true })
  try {
    source.pragma('busy_timeout = 5000')
    return await backupDatabase(source, target, options)
  } finally {
    source.close()
  }
}

/** A backup or restore refused, with the reason in words. */
export class BackupError extends Error {
  override name = 'BackupError'
}

/** The migrations this version knows: `when` of each journal entry, with its tag. */
function knownMigrations(): Map<number, string> {
  const journal = JSON.parse(readFileSync(join(MIGRATIONS_FOLDER, 'meta/_journal.json'), 'utf8'))
  const known = new Map<number, string>()
  for (const entry of journal.entries as { when: number; tag: string }[])
    known.set(entry.when, entry.tag)
  return known
}

/**
 * Checks a backup before it is restored: SQLite's integrity check, a Paylinks database, only
 * migrations this version knows (a copy from a newer version would lose what it added), and
 * exactly the schema those migrations make (src/runtime/node/backup-schema.ts). Throws BackupError naming
 * the problem (`shownAs`: the name the person gave, when `path` is a copy of it); returns how
 * many migrations the copy has applied.
 */
export function checkBackup(
  path: string,
  shownAs: string = path,
): { migrations: number; payments: number } {
  if (!existsSync(path)) throw new BackupError(`No backup at ${shownAs}`)
  let db: Database.Database
  try {
    db = new Database(path, { readonly: true, fileMustExist: true })
  } catch (error) {
    throw new BackupError(`${shownAs} cannot be opened as SQLite: ${(error as Error).message}`)
  }
  try {
    let lines: string[]
    try {
      const rows = db.pragma('integrity_check') as { integrity_check: string }[]
      lines = rows.map((r) => r.integrity_check)
    } catch (error) {
      throw new BackupError(`${shownAs} is not a SQLite database: ${(error as Error).message}`)
    }
    if (lines.join() !== 'ok')
      throw new BackupError(
        `${shownAs} fails SQLite's integrity check: ${lines.slice(0, 3).join('; ')}`,
      )
    const hasTable = (name: string) =>
      db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(name)
    if (!hasTable('__drizzle_migrations') || !hasTable('payments'))
      throw new BackupError(
        `${shownAs} is not a Paylinks database (no migrations table or payments)`,
      )
    const applied = (
      db.prepare('SELECT created_at AS at FROM __drizzle_migrations').all() as { at: unknown }[]
    ).map((m) => Number(m.at))
    const known = knownMigrations()
    const unknown = applied.filter((at) => !known.has(at))
    if (unknown.length > 0)
      throw new BackupError(
        `${shownAs} has ${unknown.length} migration(s) this version of Paylinks does not know: it comes from a newer version; restore it with that version`,
      )
    // drizzle's migrator goes by the last migration recorded: the server applies those after it.
    const differences = schemaDifferences(db, Math.max(-Infinity, ...applied))
    if (differences.length > 0)
      throw new BackupError(
        `${shownAs} does not have the schema this version of Paylinks makes, and is not restored: ${listed(differences)}`,
      )
    const { n } = db.prepare('SELECT count(*) AS n FROM payments').get() as { n: number }
    return { migrations: applied.length, payments: n }
  } finally {
    db.close()
  }
}

/** The first differences, and how many more. */
function listed(differences: string[]): string {
  const shown = differences.slice(0, 10).join(', ')
  return differences.length > 10 ? `${shown} and ${differences.length - 10} more` : shown
}

/**
 * Replaces the database at `target` with the checked backup at `source`, through the backup API
 * (which rewrites the target whole, its log included). Whoever calls this makes sure no server
 * holds the target (src/runtime/node/server-lock.ts).
 */
export async function restoreDatabase(source: string, target: string): Promise<BackupResult> {
  checkBackup(source)
  // The copy is checked again before it replaces the target: what is installed is what passed,
  // even if the backup file changed in between. Until then the target is left as it was.
  return backupFile(source, target, {
    check: (copy) => {
      checkBackup(copy, source)
      // A log left by the previous database would be replayed over the restored one.
      for (const suffix of ['-wal', '-shm']) rmSync(`${target}${suffix}`, { force: true })
    },
  })
}
