/**
 * Cold start: `npm start` on a new database file, timed from the spawn to the first 200 of
 * `GET /healthz` (npm, tsx's compilation, migrations, key generation and listen included).
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

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

async function untilHealthy(url: string, child: ChildProcess, limitMs: number): Promise<void> {
  const deadline = performance.now() + limitMs
  while (performance.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`npm start exited with ${child.exitCode}`)
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
    // npm and tsx run in their own process group (detached): stop exactly that group.
    process.kill(-pid, 'SIGTERM')
  })
}

/** Milliseconds from `npm start` to the first 200, once. */
export async function coldStartOnce(): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), 'paylinks-cold-'))
  const port = await freePort()
  const started = performance.now()
  const child = spawn('npm', ['start', '--silent'], {
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

/** The median of `runs` cold starts, and all of them. */
export async function coldStart(runs = 3): Promise<{ median: number; all: number[] }> {
  const all: number[] = []
  for (let i = 0; i < runs; i++) all.push(await coldStartOnce())
  const sorted = [...all].sort((a, b) => a - b)
  return { median: sorted[Math.floor(sorted.length / 2)] as number, all }
}
