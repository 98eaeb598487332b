/**
 * Cold start on a new database file, timed from the spawn to the first 200 of `GET /healthz`
 * (migrations, key generation and listen included): `npm start` (npm, and the check that the
 * build is current), and the production start, `node dist/server/main.js`, alone.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Row } from './report.js'

const ROOT = fileURLToPath(new URL('..', import.meta.url))

/** A port nobody listens on right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      const port = typeof address === 'object' && address ? address.port : 0
      server.close(() => resolve(port))
    })
  })
}

/** How the server is started: through npm, or the built server with node alone (production). */
export const START_COMMANDS = ['npm start', 'node dist/server/main.js'] as const
export type StartCommand = (typeof START_COMMANDS)[number]

/** The production start's goal, in seconds. */
export const COLD_START_GOAL_S = 0.3

const SPAWN: Record<StartCommand, [string, string[]]> = {
  'npm start': ['npm', ['start', '--silent']],
  'node dist/server/main.js': [process.execPath, ['dist/server/main.js']],
}

async function untilHealthy(url: string, child: ChildProcess, limitMs: number): Promise<void> {
  const deadline = performance.now() + limitMs
  while (performance.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}`)
    try {
      const res = await fetch(url)
      if (res.status === 200) return
    } catch {
      // Not listening yet.
    }
    await new Promise((r) => setTimeout(r, 5))
  }
  throw new Error(`no 200 from ${url} within ${limitMs} ms`)
}

function stopGroup(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.pid === undefined) return resolve()
    const pid = child.pid
    const force = setTimeout(() => {
      try {
        process.kill(-pid, 'SIGKILL')
      } catch {}
    }, 5000)
    child.once('exit', () => {
      clearTimeout(force)
      resolve()
    })
    // npm, its shell and the server run in their own process group (detached): stop exactly that group.
    process.kill(-pid, 'SIGTERM')
  })
}

/** Milliseconds from the spawn of `command` to the first 200, once. */
export async function coldStartOnce(command: StartCommand = 'npm start'): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), 'paylinks-cold-'))
  const port = await freePort()
  const [file, args] = SPAWN[command]
  const started = performance.now()
  const child = spawn(file, args, {
    cwd: ROOT,
    detached: true,
    stdio: 'ignore',
    env: {
      ...process.env,
      PORT: String(port),
      DATABASE_PATH: join(dir, 'paylinks.db'),
      CAPTCHA: 'off',
    },
  })
  try {
    await untilHealthy(`http://127.0.0.1:${port}/healthz`, child, 60_000)
    return performance.now() - started
  } finally {
    await stopGroup(child)
    rmSync(dir, { recursive: true, force: true })
  }
}

/** The median of `runs` cold starts of `command`, and all of them; the build made current first. */
export async function coldStart(
  runs = 3,
  command: StartCommand = 'npm start',
): Promise<{ median: number; all: number[] }> {
  execFileSync(process.execPath, ['scripts/build.mjs', '--if-stale'], {
    cwd: ROOT,
    stdio: 'ignore',
  })
  const all: number[] = []
  for (let i = 0; i < runs; i++) all.push(await coldStartOnce(command))
  const sorted = [...all].sort((a, b) => a - b)
  return { median: sorted[Math.floor(sorted.length / 2)] as number, all }
}

/** The bench's row for `command`: the median, and for the production start its goal. */
export function coldStartRow(command: StartCommand, cold: { median: number; all: number[] }): Row {
  const seconds = cold.median / 1000
  return {
    what: `Cold start: \`${command}\` to the first 200 of \`/healthz\` (median of ${cold.all.length})`,
    result: `${seconds.toFixed(2)} s`,
    goal:
      command === 'npm start'
        ? undefined
        : `≤ ${COLD_START_GOAL_S.toFixed(2)} s: ${seconds <= COLD_START_GOAL_S ? 'met' : '**not met**'}`,
  }
}

/** The note under the table: every run of `command`. */
export function coldStartNote(command: StartCommand, cold: { all: number[] }): string {
  const runs = cold.all.map((t) => `${(t / 1000).toFixed(2)} s`).join(', ')
  return `Cold start, \`${command}\`: new database file, no ADMIN_TOKEN (one is generated), runs ${runs}.`
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  // `npx tsx bench/cold-start.ts`: these rows alone, without running the whole bench.
  for (const command of START_COMMANDS) {
    const cold = await coldStart(5, command)
    const row = coldStartRow(command, cold)
    process.stdout.write(
      `| ${row.what} | ${row.result} | ${row.goal ?? ''} |\n${coldStartNote(command, cold)}\n`,
    )
  }
}
