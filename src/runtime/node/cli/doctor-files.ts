/**
 * `paylinks doctor`'s look at the files on disk: the database, its logs, the copies a restore kept
 * and the scheduled backups hold the session, TOTP and webhook signing secrets, so anyone but
 * their owner able to read them (or to list their directory) is a warning naming the fix.
 */
import { existsSync, readdirSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'
import { BACKUP_NAME } from '../backup-schedule.js'
import { type OpenToOthers, octal, openToOthers } from '../private-files.js'

type Env = Record<string, string | undefined>
/** A line of `paylinks doctor` (its Check). */
type FileCheck = { item: string; status: 'ok' | 'warn'; detail: string }

/** The names in `dir` that `keep` accepts, as paths; none when it cannot be read. */
function listed(dir: string, keep: (name: string) => boolean): string[] {
  try {
    return readdirSync(dir)
      .filter(keep)
      .sort()
      .map((name) => join(dir, name))
  } catch {
    return []
  }
}

/** Who besides the owner the mode lets in. */
function whom(mode: number): string {
  const group = (mode >> 3) & 7
  const others = mode & 7
  return [group ? 'group' : '', others ? 'others' : ''].filter(Boolean).join(' and ')
}

const warning = (open: OpenToOthers): FileCheck => ({
  item: open.path,
  status: 'warn',
  detail: `mode ${octal(open.mode)}, open to ${whom(open.mode)} (it holds the secrets Paylinks keeps): ${open.fix}`,
})

/** One warning per database file, backup or directory others can get into; else one ok line. */
export function fileChecks(env: Env): FileCheck[] {
  const database = env.DATABASE_PATH?.trim() || './data/paylinks.db'
  if (database === ':memory:') return []
  const exists = existsSync(database)
  const dir = dirname(database)
  const base = basename(database)
  // Without a database its directory is the server's to make (0700) when it starts.
  const paths = exists
    ? [
        dir,
        ...[database, `${database}-wal`, `${database}-shm`, `${database}-journal`],
        ...listed(dir, (name) => name.startsWith(`${base}.before-restore-`)),
      ]
    : []
  const backups = env.BACKUP_DIR?.trim()
  if (backups) paths.push(backups, ...listed(backups, (name) => BACKUP_NAME.test(name)))
  const open = openToOthers(paths)
  if (open.length > 0) return open.map(warning)
  return [
    exists
      ? {
          item: 'database files',
          status: 'ok',
          detail: `${database}${backups ? ' and the backups' : ''}: only their owner can read them`,
        }
      : { item: 'database files', status: 'ok', detail: `no database yet at ${database}` },
  ]
}
