/**
 * The database, its logs, its backups and exports hold every secret Paylinks keeps: real files,
 * created under a umask of 000 (which leaves whatever mode `open` is asked for), must come out
 * readable by their owner alone.
 */
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { reservePayment } from '../../src/data/payment-reserve.js'
import { backupFile, restoreDatabase } from '../../src/runtime/node/backup.js'
import { takeScheduledBackup } from '../../src/runtime/node/backup-schedule.js'
import { openSqlite } from '../../src/runtime/node/database.js'
import { writePrivateFile } from '../../src/runtime/node/private-files.js'
import { holdDatabase, lockPathOf } from '../../src/runtime/node/server-lock.js'
import { paymentRequest, T0 } from '../data/helpers.js'
import { storeLink } from '../support/links.js'

const modeOf = (path: string) => (statSync(path).mode & 0o777).toString(8)

const dirs: string[] = []
let umask = 0
beforeEach(() => {
  umask = process.umask(0o000)
})
afterEach(() => {
  process.umask(umask)
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'paylinks-modes-'))
  dirs.push(dir)
  return dir
}

/** A database made as a version without these modes made it: SQLite's own 0644, in WAL mode. */
function olderDatabase(path: string): void {
  const db = new Database(path)
  db.pragma('journal_mode = WAL')
  db.exec('CREATE TABLE notes (id INTEGER)')
  db.close()
}

describe('the database on Node, under umask 000', () => {
  it('creates its directory 0700 (missing parents too) and the database, its -wal and -shm 0600', async () => {
    const dir = tempDir()
    const path = join(dir, 'state', 'paylinks', 'paylinks.db')
    const handle = openSqlite(path)
    try {
      const link = await storeLink(handle.db)
      await reservePayment(handle.db, paymentRequest(link), T0)
      expect(existsSync(`${path}-wal`)).toBe(true)
      expect(existsSync(`${path}-shm`)).toBe(true)
      expect({
        parent: modeOf(join(dir, 'state')),
        dir: modeOf(join(dir, 'state', 'paylinks')),
        db: modeOf(path),
        wal: modeOf(`${path}-wal`),
        shm: modeOf(`${path}-shm`),
      }).toEqual({ parent: '700', dir: '700', db: '600', wal: '600', shm: '600' })
    } finally {
      handle.close()
    }
  })

  it("writes the server's mark beside the database 0600, over one a crash left at 0666 too", () => {
    const path = join(tempDir(), 'paylinks.db')
    writeFileSync(lockPathOf(path), '4194999\n', { mode: 0o666 })
    const release = holdDatabase(path)
    expect(modeOf(lockPathOf(path))).toBe('600')
    release()
  })

  it('tightens a directory and a database an older version left open, when they are its own', () => {
    const dir = join(tempDir(), 'data')
    mkdirSync(dir, { mode: 0o755 })
    const path = join(dir, 'paylinks.db')
    olderDatabase(path)
    writeFileSync(`${path}-shm`, '', { mode: 0o644 })
    expect([modeOf(dir), modeOf(path)]).toEqual(['755', '644'])
    const warnings: string[] = []
    const handle = openSqlite(path, { warn: (text) => warnings.push(text) })
    try {
      handle.sqlite.exec("INSERT INTO settings (key, value, created_at) VALUES ('k', 'v', 0)")
      expect(warnings).toEqual([])
      expect([modeOf(dir), modeOf(path), modeOf(`${path}-wal`), modeOf(`${path}-shm`)]).toEqual([
        '700',
        '600',
        '600',
        '600',
      ])
    } finally {
      handle.close()
    }
  })

  it('leaves a directory shared with other files as it is, and warns naming it and the fix', () => {
    const dir = join(tempDir(), 'home')
    mkdirSync(dir, { mode: 0o755 })
    writeFileSync(join(dir, 'notes.txt'), 'not Paylinks')
    const path = join(dir, 'paylinks.db')
    const warnings: string[] = []
    openSqlite(path, { warn: (text) => warnings.push(text) }).close()
    expect(warnings).toEqual([
      `Paylinks database directory: ${dir} is open to others (mode 0755): chmod 700 ${dir}`,
    ])
    expect([modeOf(dir), modeOf(path)]).toEqual(['755', '600'])
  })
})

describe('backups and exports on Node, under umask 000', () => {
  it('writes a backup 0600, also over a file that was there at 0644, and a restored database 0600', async () => {
    const dir = tempDir()
    const live = join(dir, 'live.db')
    openSqlite(live).close()
    const copy = join(dir, 'copy.db')
    await backupFile(live, copy)
    expect(modeOf(copy)).toBe('600')

    const replaced = join(dir, 'replaced.db')
    writeFileSync(replaced, 'an older file', { mode: 0o644 })
    await backupFile(live, replaced)
    expect(modeOf(replaced)).toBe('600')

    const restored = join(dir, 'restored.db')
    olderDatabase(restored)
    expect(modeOf(restored)).toBe('644')
    await restoreDatabase(copy, restored)
    expect(modeOf(restored)).toBe('600')
    // The read-only connection of a copy leaves the source's logs (SQLite makes them with the
    // database's mode); no partial copy or journal is left beside the copies.
    expect(readdirSync(dir).sort()).toEqual([
      'copy.db',
      'live.db',
      'live.db-shm',
      'live.db-wal',
      'replaced.db',
      'restored.db',
    ])
    expect([modeOf(`${live}-wal`), modeOf(`${live}-shm`)]).toEqual(['600', '600'])
  })

  it('creates BACKUP_DIR 0700 and each scheduled backup 0600', async () => {
    const dir = tempDir()
    const live = openSqlite(join(dir, 'live.db'))
    const backups = join(dir, 'backups', 'daily')
    try {
      const path = await takeScheduledBackup(
        live.sqlite,
        { dir: backups, intervalMs: 60_000, keep: 2 },
        Date.parse('2026-03-01T10:00:00Z'),
      )
      expect([modeOf(join(dir, 'backups')), modeOf(backups), modeOf(path)]).toEqual([
        '700',
        '700',
        '600',
      ])
    } finally {
      live.close()
    }
  })

  it('writes an export 0600, also over a file that was there at 0644', () => {
    const dir = tempDir()
    const fresh = join(dir, 'january.csv')
    writePrivateFile(fresh, 'id,name\n')
    const old = join(dir, 'old.csv')
    writeFileSync(old, 'before', { mode: 0o644 })
    chmodSync(old, 0o644)
    writePrivateFile(old, 'id,name\n')
    expect([modeOf(fresh), modeOf(old)]).toEqual(['600', '600'])
  })
})
