import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { parseConfig } from '../../src/config.js'
import { reservePayment } from '../../src/data/payment-reserve.js'
import { BackupError, backupDatabase, checkBackup, restoreDatabase } from '../../src/node/backup.js'
import { backupName, takeScheduledBackup } from '../../src/node/backup-schedule.js'
import { holdDatabase, lockPathOf, serverHolding } from '../../src/node/server-lock.js'
import { MIGRATIONS_FOLDER, openSqlite } from '../../src/node/sqlite.js'
import { paymentRequest, T0 } from '../data/helpers.js'
import { storeLink } from '../support/links.js'

/** Every migration of this checkout: a backup of a current database has them all. */
const MIGRATIONS = readdirSync(MIGRATIONS_FOLDER).filter((f) => f.endsWith('.sql')).length

const dirs: string[] = []
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'paylinks-backup-'))
  dirs.push(dir)
  return dir
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

/** A migrated Paylinks database at `path` with one link and `n` payments, reserved as checkout does. */
async function database(path: string, payments: number) {
  const handle = openSqlite(path)
  const link = await storeLink(handle.db)
  for (let i = 0; i < payments; i++) await reservePayment(handle.db, paymentRequest(link), T0 + i)
  return handle
}

describe('backups', () => {
  it('copies what the server connection committed, even rows still in its write-ahead log', async () => {
    const dir = tempDir()
    const live = await database(join(dir, 'live.db'), 3)
    const copy = join(dir, 'copy.db')
    await backupDatabase(live.sqlite, copy, { oneStep: false })
    live.close()
    expect(checkBackup(copy)).toEqual({ migrations: MIGRATIONS, payments: 3 })
    expect(readdirSync(dir).sort()).toEqual(['copy.db', 'live.db'])
  })

  it('refuses to restore a file that is not SQLite, a database that is not Paylinks, and a copy from a newer version', async () => {
    const dir = tempDir()
    const text = join(dir, 'notes.db')
    writeFileSync(text, 'this is not a database, just some text that is long enough'.repeat(20))
    expect(() => checkBackup(text)).toThrow(/is not a SQLite database|cannot be opened/)

    const other = openSqlite(join(dir, 'other.db'), { migrate: false })
    other.sqlite.exec('CREATE TABLE notes (id INTEGER)')
    other.close()
    expect(() => checkBackup(join(dir, 'other.db'))).toThrow('is not a Paylinks database')

    const newer = await database(join(dir, 'newer.db'), 1)
    newer.sqlite
      .prepare('INSERT INTO __drizzle_migrations (hash, created_at) VALUES (?, ?)')
      .run('feed', 4_102_444_800_000)
    newer.close()
    const target = join(dir, 'target.db')
    await expect(restoreDatabase(join(dir, 'newer.db'), target)).rejects.toThrow(BackupError)
    await expect(restoreDatabase(join(dir, 'newer.db'), target)).rejects.toThrow(
      '1 migration(s) this version of Paylinks does not know',
    )
    expect(readdirSync(dir)).not.toContain('target.db')
  })

  it('keeps the newest BACKUP_KEEP scheduled backups, named by their UTC time', async () => {
    const dir = tempDir()
    const live = await database(join(dir, 'live.db'), 1)
    const schedule = { dir: join(dir, 'backups'), intervalMs: 60_000, keep: 2 }
    const start = Date.parse('2026-03-01T10:00:00Z')
    for (let i = 0; i < 4; i++)
      await takeScheduledBackup(live.sqlite, schedule, start + i * 3_600_000)
    live.close()
    expect(backupName(start)).toBe('paylinks-20260301T100000Z.db')
    expect(readdirSync(schedule.dir)).toEqual([
      'paylinks-20260301T120000Z.db',
      'paylinks-20260301T130000Z.db',
    ])
  })
})

describe('the server mark on the database', () => {
  it('names a live process, is let go of at stop, and a mark left by a dead process holds nothing', () => {
    const path = join(tempDir(), 'p.db')
    const release = holdDatabase(path)
    expect(serverHolding(path)).toBe(process.pid)
    release()
    expect(serverHolding(path)).toBeUndefined()
    // A server that crashed: the pid in its mark is gone (pids this large are not handed out).
    writeFileSync(lockPathOf(path), '4194999\n')
    expect(serverHolding(path)).toBeUndefined()
  })
})

describe('backup settings', () => {
  it('are off without BACKUP_DIR, read intervals in minutes, hours or days, and name a bad value', () => {
    expect(parseConfig({}).backups).toBeUndefined()
    expect(parseConfig({ BACKUP_DIR: '/var/backups/paylinks' }).backups).toEqual({
      dir: '/var/backups/paylinks',
      intervalMs: 86_400_000,
      keep: 7,
    })
    expect(
      parseConfig({ BACKUP_DIR: '/b', BACKUP_INTERVAL: '6h', BACKUP_KEEP: '3' }).backups,
    ).toEqual({ dir: '/b', intervalMs: 21_600_000, keep: 3 })
    expect(parseConfig({ BACKUP_DIR: '/b', BACKUP_INTERVAL: '30m' }).backups?.intervalMs).toBe(
      1_800_000,
    )
    expect(() => parseConfig({ BACKUP_INTERVAL: 'hourly' })).toThrow(
      'BACKUP_INTERVAL must be a number and a unit',
    )
    expect(() => parseConfig({ BACKUP_KEEP: '0' })).toThrow('BACKUP_KEEP')
  })
})
