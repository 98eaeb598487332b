/**
 * `paylinks backup`, `restore` and `doctor` on real files, as processes started under umask 000
 * (a child keeps its parent's umask): every file they write is the owner's alone, a tampered
 * backup is refused without touching the database, and doctor names what others can read.
 */
import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest'
import { openSqlite } from '../../src/runtime/node/database.js'
import { killAll, runCli } from './support.js'

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
afterAll(killAll)

/** A directory holding a migrated database at `data/paylinks.db`. */
function setUp(): { dir: string; db: string } {
  const dir = mkdtempSync(join(tmpdir(), 'paylinks-cli-files-'))
  dirs.push(dir)
  const db = join(dir, 'data', 'paylinks.db')
  openSqlite(db).close()
  return { dir, db }
}

describe('paylinks backup and restore, under umask 000', () => {
  it('write the backup, the restored database and the copy a restore keeps 0600', async () => {
    const { dir, db } = setUp()
    const backup = join(dir, 'copy.db')
    const made = await runCli(['backup', backup, '--db', db])
    expect(made.code, made.stderr).toBe(0)
    expect(modeOf(backup)).toBe('600')

    const restored = await runCli(['restore', backup, '--db', db, '--yes', '--json'])
    expect(restored.code, restored.stderr).toBe(0)
    const kept = JSON.parse(restored.stdout).kept as string
    expect(kept).toMatch(/paylinks\.db\.before-restore-\w+$/)
    expect([modeOf(kept), modeOf(db), modeOf(join(dir, 'data'))]).toEqual(['600', '600', '700'])
  }, 60_000)

  it('restore refuses a backup with a trigger added, naming it, and changes nothing', async () => {
    const { dir, db } = setUp()
    const tampered = join(dir, 'tampered.db')
    const handle = openSqlite(tampered)
    handle.sqlite.exec(
      "CREATE TRIGGER users_promote AFTER INSERT ON users BEGIN UPDATE users SET role = 'owner' WHERE id = new.id; END",
    )
    handle.close()
    const before = readFileSync(db)
    const files = readdirSync(join(dir, 'data')).sort()
    const run = await runCli(['restore', tampered, '--db', db, '--yes'])
    expect(run.code).toBe(1)
    expect(run.stderr).toContain('is not restored: extra trigger users_promote')
    expect(readFileSync(db).equals(before)).toBe(true)
    // No copy kept aside either: nothing was about to be replaced.
    expect(readdirSync(join(dir, 'data')).sort()).toEqual(files)
  }, 60_000)
})

describe('paylinks doctor and the files on disk', () => {
  it('warns of a database, a backup and a directory others can read, naming each and the fix', async () => {
    const { dir, db } = setUp()
    const backups = join(dir, 'backups')
    mkdirSync(backups, { mode: 0o700 })
    const backup = join(backups, 'paylinks-20260301T100000Z.db')
    writeFileSync(backup, '', { mode: 0o644 })
    chmodSync(db, 0o644)
    chmodSync(join(dir, 'data'), 0o755)
    const run = await runCli(['doctor', '--offline', '--json'], {
      DATABASE_PATH: db,
      BACKUP_DIR: backups,
    })
    const warned = (JSON.parse(run.stdout) as { item: string; status: string; detail: string }[])
      .filter((c) => c.status === 'warn' && c.item.startsWith(dir))
      .map((c) => [c.item, c.detail])
    const why = '(it holds the secrets Paylinks keeps)'
    expect(warned).toEqual([
      [join(dir, 'data'), `mode 0755, open to group and others ${why}: chmod 700 ${dir}/data`],
      [db, `mode 0644, open to group and others ${why}: chmod 600 ${db}`],
      [backup, `mode 0644, open to group and others ${why}: chmod 600 ${backup}`],
    ])

    chmodSync(db, 0o600)
    chmodSync(backup, 0o600)
    chmodSync(join(dir, 'data'), 0o700)
    const fixed = await runCli(['doctor', '--offline', '--json'], {
      DATABASE_PATH: db,
      BACKUP_DIR: backups,
    })
    expect(JSON.parse(fixed.stdout)).toContainEqual({
      item: 'database files',
      status: 'ok',
      detail: `${db} and the backups: only their owner can read them`,
    })
  }, 60_000)
})
