/**
 * Backups of the SQLite database with SQLite's online backup API: a consistent copy taken while
 * the server keeps serving (WAL: readers never block the writer), and the checks a restore runs
 * on a copy before it replaces anything.
 */
import { existsSync, readFileSync, renameSync, rmSync } from 'node:fs'
import { dirname, join } from 'node:path'
import Database from 'better-sqlite3'
import { MIGRATIONS_FOLDER } from './sqlite.js'

/** What a finished backup copied. */
export interface BackupResult {
  path: string
  pages: number
}

/**
 * Copies the database open in `source` to `target` (replaced if it exists). From another process
 * the copy is made in one step, under one read transaction: a write by another connection
 * between steps would start SQLite's backup over, and a busy server could keep it from ever
 * finishing. The server's own connection steps through the file so its event loop never waits
 * long; its own writes are carried into the copy by SQLite as they happen.
 */
export async function backupDatabase(
  source: Database.Database,
  target: string,
  options: { oneStep?: boolean } = {},
): Promise<BackupResult> {
  // Written beside the target, then renamed: a reader never sees half a copy under its name.
  const partial = join(dirname(target), `.${Date.now()}-${process.pid}.partial`)
  try {
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
    renameSync(partial, target)
    return { path: target, pages: result.totalPages }
  } finally {
    rmSync(partial, { force: true })
  }
}

/** Copies the database file at `path` (opened read-only for the time of the copy). */
export async function backupFile(path: string, target: string): Promise<BackupResult> {
  if (!existsSync(path)) throw new BackupError(`No database at ${path}`)
  const source = new Database(path, { readonly: true, fileMustExist: true })
  try {
    source.pragma('busy_timeout = 5000')
    return await backupDatabase(source, target)
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
 * Checks a backup before it is restored: SQLite's integrity check, a Paylinks database, and only
 * migrations this version knows (a copy from a newer version would lose what it added). Throws
 * BackupError naming the first problem; returns how many migrations the copy has applied.
 */
export function checkBackup(path: string): { migrations: number; payments: number } {
  if (!existsSync(path)) throw new BackupError(`No backup at ${path}`)
  let db: Database.Database
  try {
    db = new Database(path, { readonly: true, fileMustExist: true })
  } catch (error) {
    throw new BackupError(`${path} cannot be opened as SQLite: ${(error as Error).message}`)
  }
  try {
    let lines: string[]
    try {
      const rows = db.pragma('integrity_check') as { integrity_check: string }[]
      lines = rows.map((r) => r.integrity_check)
    } catch (error) {
      throw new BackupError(`${path} is not a SQLite database: ${(error as Error).message}`)
    }
    if (lines.join() !== 'ok')
      throw new BackupError(
        `${path} fails SQLite's integrity check: ${lines.slice(0, 3).join('; ')}`,
      )
    const hasTable = (name: string) =>
      db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(name)
    if (!hasTable('__drizzle_migrations') || !hasTable('payments'))
      throw new BackupError(`${path} is not a Paylinks database (no migrations table or payments)`)
    const applied = db.prepare('SELECT created_at AS at FROM __drizzle_migrations').all() as {
      at: number
    }[]
    const known = knownMigrations()
    const unknown = applied.filter((m) => !known.has(Number(m.at)))
    if (unknown.length > 0)
      throw new BackupError(
        `${path} has ${unknown.length} migration(s) this version of Paylinks does not know: it comes from a newer version; restore it with that version`,
      )
    const { n } = db.prepare('SELECT count(*) AS n FROM payments').get() as { n: number }
    return { migrations: applied.length, payments: n }
  } finally {
    db.close()
  }
}

/**
 * Replaces the database at `target` with the checked backup at `source`, through the backup API
 * (which rewrites the target whole, its log included). Whoever calls this makes sure no server
 * holds the target (src/node/server-lock.ts).
 */
export async function restoreDatabase(source: string, target: string): Promise<BackupResult> {
  checkBackup(source)
  // A log left by the previous database would be replayed over the restored one.
  for (const suffix of ['-wal', '-shm']) rmSync(`${target}${suffix}`, { force: true })
  return backupFile(source, target)
}
