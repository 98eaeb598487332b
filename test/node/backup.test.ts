import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { migrate } from 'drizzle-orm/better-sqlite3/migrator'
import { afterEach, describe, expect, it } from 'vitest'
import { parseConfig } from '../../src/config.js'
import { reservePayment } from '../../src/data/payment-reserve.js'
import {
  BackupError,
  backupDatabase,
  checkBackup,
  restoreDatabase,
} from '../../src/runtime/node/backup.js'
import { backupName, takeScheduledBackup } from '../../src/runtime/node/backup-schedule.js'
import { schemaDifferences } from '../../src/runtime/node/backup-schema.js'
import { MIGRATIONS_FOLDER, openSqlite } from '../../src/runtime/node/database.js'
import { holdDatabase, lockPathOf, serverHolding } from '../../src/runtime/node/server-lock.js'
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

describe('restore and the schema the migrations make', () => {
  /** A backup of a current database with one payment, changed by `sql` as an attacker would. */
  async function tampered(dir: string, name: string, sql: string): Promise<string> {
    const path = join(dir, name)
    const handle = await database(path, 1)
    handle.sqlite.exec(sql)
    handle.close()
    return path
  }

  /** Restoring `backup` over a live database fails with `message` and changes no byte of it. */
  async function refused(dir: string, backup: string, message: string | RegExp) {
    const live = join(dir, 'live.db')
    ;(await database(live, 2)).close()
    const before = readFileSync(live)
    const files = readdirSync(dir).sort()
    await expect(restoreDatabase(backup, live)).rejects.toThrow(BackupError)
    await expect(restoreDatabase(backup, live)).rejects.toThrow(message)
    expect(readFileSync(live).equals(before)).toBe(true)
    expect(readdirSync(dir).sort()).toEqual(files)
  }

  it('refuses a backup with a trigger added, naming it, and leaves the live database as it was', async () => {
    const dir = tempDir()
    const backup = await tampered(
      dir,
      'promote.db',
      "CREATE TRIGGER users_promote AFTER INSERT ON users BEGIN UPDATE users SET role = 'owner' WHERE id = new.id; END",
    )
    expect(() => checkBackup(backup)).toThrow(
      `${backup} does not have the schema this version of Paylinks makes, and is not restored: extra trigger users_promote`,
    )
    await refused(dir, backup, 'extra trigger users_promote')
  })

  it('refuses an extra table, column, index or view, and a trigger of the migrations rewritten, each by name', async () => {
    const dir = tempDir()
    const cases: [string, string][] = [
      ['CREATE TABLE notes (id INTEGER)', 'extra table notes'],
      ['ALTER TABLE users ADD COLUMN note TEXT', 'extra column users.note'],
      ['CREATE INDEX payments_amount_idx ON payments (amount)', 'extra index payments_amount_idx'],
      ['CREATE VIEW owners AS SELECT * FROM users', 'extra view owners'],
      [
        'DROP TRIGGER payments_count_insert; CREATE TRIGGER payments_count_insert AFTER INSERT ON payments BEGIN SELECT 1; END',
        'different trigger payments_count_insert',
      ],
      [
        'DROP INDEX webhook_events_dedupe_key_unique',
        'missing index webhook_events_dedupe_key_unique',
      ],
    ]
    for (const [i, [sql, named]] of cases.entries()) {
      const backup = await tampered(dir, `case-${i}.db`, sql)
      expect(() => checkBackup(backup), sql).toThrow(`is not restored: ${named}`)
    }
    await refused(dir, join(dir, 'case-2.db'), 'extra index payments_amount_idx')
  })

  it('refuses a two-table skeleton, naming the tables it lacks', async () => {
    const dir = tempDir()
    const skeleton = (name: string, migrations: boolean) => {
      const path = join(dir, name)
      const db = new Database(path)
      db.exec(
        'CREATE TABLE __drizzle_migrations (id SERIAL PRIMARY KEY, hash text NOT NULL, created_at numeric); CREATE TABLE payments (id TEXT PRIMARY KEY)',
      )
      // Every migration recorded as applied, so that nothing would be added at start.
      if (migrations) {
        const full = openSqlite(join(dir, 'full.db'))
        const rows = full.sqlite.prepare('SELECT hash, created_at FROM __drizzle_migrations').all()
        full.close()
        const put = db.prepare('INSERT INTO __drizzle_migrations (hash, created_at) VALUES (?, ?)')
        for (const row of rows as { hash: string; created_at: number }[])
          put.run(row.hash, row.created_at)
      }
      db.close()
      return path
    }
    const recorded = skeleton('recorded.db', true)
    const opened = new Database(recorded, { readonly: true })
    const differences = schemaDifferences(opened, Infinity)
    opened.close()
    expect(differences).toEqual(
      expect.arrayContaining([
        'missing table links',
        'missing table users',
        'missing column payments.link_id',
      ]),
    )
    await refused(dir, recorded, /is not restored: missing table \w+, .* and \d+ more$/)
    // Nothing recorded: the migrations would make its table again, and the server would not start.
    expect(() => checkBackup(skeleton('bare.db', false))).toThrow(
      'is not restored: extra table payments',
    )
  })

  it("accepts a backup SQLite's ANALYZE wrote its statistics into", async () => {
    const dir = tempDir()
    const backup = await tampered(dir, 'analysed.db', 'ANALYZE')
    const opened = new Database(backup, { readonly: true })
    const stats = opened
      .prepare("SELECT count(*) FROM sqlite_master WHERE name LIKE 'sqlite_stat%'")
      .pluck()
      .get()
    opened.close()
    expect(stats).toBeGreaterThan(0)
    expect(checkBackup(backup)).toMatchObject({ payments: 1 })
  })

  it('accepts a backup of an older version, which the next start migrates, but not one with a trigger added', async () => {
    const dir = tempDir()
    const earlier = join(dir, 'migrations')
    cpSync(MIGRATIONS_FOLDER, earlier, { recursive: true })
    const journalPath = join(earlier, 'meta', '_journal.json')
    const journal = JSON.parse(readFileSync(journalPath, 'utf8')) as { entries: unknown[] }
    writeFileSync(
      journalPath,
      JSON.stringify({ ...journal, entries: journal.entries.slice(0, -2) }),
    )
    const older = (name: string, sql: string) => {
      const handle = openSqlite(join(dir, name), { migrate: false })
      migrate(handle.db, { migrationsFolder: earlier })
      handle.sqlite.exec(sql)
      handle.close()
      return join(dir, name)
    }
    const plain = older('older.db', '')
    expect(checkBackup(plain)).toEqual({ migrations: MIGRATIONS - 2, payments: 0 })
    const target = join(dir, 'restored.db')
    await restoreDatabase(plain, target)
    const started = openSqlite(target)
    const applied = started.sqlite
      .prepare('SELECT count(*) FROM __drizzle_migrations')
      .pluck()
      .get()
    started.close()
    expect(applied).toBe(MIGRATIONS)

    const promoted = older(
      'older-promote.db',
      "CREATE TRIGGER users_promote AFTER INSERT ON users BEGIN UPDATE users SET role = 'owner'; END",
    )
    expect(() => checkBackup(promoted)).toThrow('is not restored: extra trigger users_promote')
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
