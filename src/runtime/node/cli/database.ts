/**
 * The commands that work on the local SQLite database (Node): `backup`, `restore`, `token rotate`.
 * The database is DATABASE_PATH as the server reads it, or `--db`.
 */
import { existsSync } from 'node:fs'
import type { Command } from 'commander'
import { parseConfig } from '../../../config.js'
import { randomBase62 } from '../../../lib/bytes.js'
import { sha256Hex } from '../../../lib/hash.js'
import { backupFile, checkBackup, restoreDatabase } from '../backup.js'
import { openSqlite } from '../database.js'
import { serverHolding } from '../server-lock.js'
import { confirm } from './confirm.js'
import { answer, CliError } from './output.js'

/** The database the server would open: `--db`, else DATABASE_PATH with the server's default. */
function databasePath(options: { db?: string }): string {
  return options.db ?? parseConfig({ DATABASE_PATH: process.env.DATABASE_PATH }).databasePath
}

const say = (text: string) => process.stderr.write(`${text}\n`)

/** Adds `backup`, `restore` and `token rotate` to the program. */
export function databaseCommands(program: Command): void {
  program
    .command('backup')
    .description('Copy the database to <file>, consistently, while the server keeps serving')
    .argument('<file>', 'where the copy goes')
    .option('--db <path>', 'the database (default: DATABASE_PATH, as the server reads it)')
    .option('--force', 'replace <file> if it exists')
    .action(async (file: string, options: { db?: string; force?: boolean }, command: Command) => {
      const global = command.optsWithGlobals()
      const db = databasePath(options)
      if (existsSync(file) && !options.force)
        throw new CliError(`${file} exists: pass --force to replace it`)
      const result = await backupFile(db, file)
      const checked = checkBackup(file)
      const summary = { file: result.path, pages: result.pages, ...checked }
      answer(global, summary, () =>
        say(`Backed up ${db} to ${file} (${checked.payments} payment(s), integrity ok).`),
      )
    })

  program
    .command('restore')
    .description('Replace the database with a backup (the server must be stopped)')
    .argument('<file>', 'the backup to restore')
    .option('--db <path>', 'the database to replace (default: DATABASE_PATH)')
    .option('-y, --yes', 'do not ask for confirmation')
    .action(async (file: string, options: { db?: string; yes?: boolean }, command: Command) => {
      const global = command.optsWithGlobals()
      const db = databasePath(options)
      const pid = serverHolding(db)
      if (pid !== undefined)
        throw new CliError(
          `A Paylinks server (process ${pid}) holds ${db}: stop it first, then restore.`,
        )
      const checked = checkBackup(file)
      let aside: string | undefined
      if (existsSync(db)) {
        await confirm(`Replace ${db} with ${file} (${checked.payments} payment(s))?`, options.yes)
        // The replaced database is kept beside it: a wrong restore can be undone.
        aside = `${db}.before-restore-${new Date().toISOString().replace(/[-:.]/g, '')}`
        await backupFile(db, aside).catch(() => {
          aside = undefined
        })
      }
      await restoreDatabase(file, db)
      const summary = { database: db, restored_from: file, kept: aside ?? null, ...checked }
      answer(global, summary, () =>
        say(
          `Restored ${file} into ${db} (${checked.payments} payment(s)).${aside ? ` The previous database is kept at ${aside}.` : ''} Start the server: it applies any newer migration.`,
        ),
      )
    })

  const token = program.command('token').description('The admin token')
  token
    .command('rotate')
    .description('Make a new admin token (stored hashed); dashboard sessions of the old one end')
    .option('--db <path>', 'the database (default: DATABASE_PATH)')
    .action(async (options: { db?: string }, command: Command) => {
      const global = command.optsWithGlobals()
      if (process.env.ADMIN_TOKEN?.trim())
        throw new CliError(
          'ADMIN_TOKEN is set: the server uses it, not a stored token. Change ADMIN_TOKEN where it is configured, then restart.',
        )
      const db = databasePath(options)
      const newToken = await rotateToken(db)
      const running = serverHolding(db) !== undefined
      const restart = running ? ' Restart the server: it reads the token when it starts.' : ''
      answer(global, { token: newToken, restart_needed: running }, () => {
        process.stdout.write(`${newToken}\n`)
        say(`New admin token (shown once, keep it). The old one and its sessions end.${restart}`)
      })
    })
}

/** Stores a new token's hash and a new session secret (every signed session ends); returns the token. */
async function rotateToken(path: string): Promise<string> {
  if (!existsSync(path)) throw new CliError(`No database at ${path}`)
  const handle = openSqlite(path)
  try {
    const newToken = `plk_${randomBase62(32)}`
    const hash = await sha256Hex(newToken)
    const put = handle.sqlite.prepare(
      'INSERT INTO settings (key, value, created_at) VALUES (?, ?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
    )
    const now = Date.now()
    handle.sqlite.transaction(() => {
      put.run('admin_token_sha256', hash, now)
      put.run('session_secret', randomBase62(43), now)
    })()
    return newToken
  } finally {
    handle.close()
  }
}
