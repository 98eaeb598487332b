/**
 * Scheduled backups in the Node server (BACKUP_DIR, BACKUP_INTERVAL, BACKUP_KEEP): a copy every
 * interval named by its UTC time, the oldest removed beyond the number to keep. Each copy is 0600
 * and the directory 0700 (src/runtime/node/private-files.ts).
 */
import { readdirSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import type Database from 'better-sqlite3'
import { describe } from '../../lib/describe-error.js'
import type { Logger } from '../../log.js'
import { backupDatabase } from './backup.js'
import { describeOpen, type OpenToOthers, PARTIAL_NAME, privateDirectory } from './private-files.js'

/** The name of a scheduled backup. */
export const BACKUP_NAME = /^paylinks-\d{8}T\d{6}Z\.db$/

/** Creates BACKUP_DIR 0700, or tightens it if it holds only backups; else says it is open. */
const backupDirectory = (dir: string): OpenToOthers | undefined =>
  privateDirectory(dir, (name) => BACKUP_NAME.test(name) || PARTIAL_NAME.test(name))

/** The file name of a backup taken at `now`: sorts by time. */
export function backupName(now: number): string {
  const stamp = new Date(now).toISOString().replace(/[-:]/g, '').replace(/\.\d+/, '')
  return `paylinks-${stamp}.db`
}

export interface BackupSchedule {
  dir: string
  intervalMs: number
  keep: number
}

/** Takes one scheduled backup now and removes the oldest beyond `keep`; returns its path. */
export async function takeScheduledBackup(
  sqlite: Database.Database,
  schedule: BackupSchedule,
  now: number,
): Promise<string> {
  backupDirectory(schedule.dir)
  const target = join(schedule.dir, backupName(now))
  // The server's own connection: stepped, so the event loop keeps serving between steps.
  await backupDatabase(sqlite, target, { oneStep: false })
  const ours = readdirSync(schedule.dir)
    .filter((name) => BACKUP_NAME.test(name))
    .sort()
  for (const name of ours.slice(0, Math.max(0, ours.length - schedule.keep)))
    rmSync(join(schedule.dir, name), { force: true })
  return target
}

/** Runs scheduled backups every interval until stopped; failures are logged, never thrown. */
export function startBackupSchedule(
  sqlite: Database.Database,
  schedule: BackupSchedule,
  log: Logger,
  clock: () => number = Date.now,
): { stop(): Promise<void> } {
  // Said once at start: a directory shared with other files is not Paylinks' to tighten. One
  // that cannot be made fails each backup, which is logged then.
  try {
    const open = backupDirectory(schedule.dir)
    if (open) log({ level: 'warn', event: 'backup_dir_open_to_others', detail: describeOpen(open) })
  } catch {}
  let running: Promise<void> = Promise.resolve()
  const timer = setInterval(() => {
    running = takeScheduledBackup(sqlite, schedule, clock())
      .then((path) => log({ event: 'backup_written', path }))
      .catch((error) => log({ level: 'error', event: 'backup_failed', error: describe(error) }))
  }, schedule.intervalMs)
  timer.unref()
  return {
    /** Stops the timer; resolves once a backup under way has finished (close the database then). */
    stop() {
      clearInterval(timer)
      return running
    },
  }
}
