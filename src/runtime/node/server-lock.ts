/**
 * The file that says a Paylinks server holds a database: `<database>.server`, holding the pid of
 * the process. A restore refuses while that process lives; a file left by a server that crashed
 * names a process that is gone and is ignored.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs'

/** The lock file of the database at `databasePath`. */
export const lockPathOf = (databasePath: string) => `${databasePath}.server`

/** The pid of the live server holding the database, or undefined. */
export function serverHolding(databasePath: string): number | undefined {
  let text: string
  try {
    text = readFileSync(lockPathOf(databasePath), 'utf8')
  } catch {
    return undefined
  }
  const pid = Number(text.trim())
  if (!Number.isInteger(pid) || pid <= 0) return undefined
  try {
    process.kill(pid, 0)
    return pid
  } catch (error) {
    // EPERM: the process exists but belongs to someone else — still a server.
    return (error as NodeJS.ErrnoException).code === 'EPERM' ? pid : undefined
  }
}

/** Marks the database as held by this process; the returned function lets go of it. */
export function holdDatabase(databasePath: string): () => void {
  if (databasePath === ':memory:') return () => {}
  const path = lockPathOf(databasePath)
  // Not a secret, but beside the database: no one else may write a pid there. Made anew, so its
  // mode is 0600 at most whatever the umask (a file left by a crash keeps its own through open).
  rmSync(path, { force: true })
  writeFileSync(path, `${process.pid}\n`, { mode: 0o600 })
  return () => {
    // Only our own mark: a second server started on the same file (a mistake) keeps its own.
    if (serverHolding(databasePath) === process.pid) rmSync(path, { force: true })
  }
}
