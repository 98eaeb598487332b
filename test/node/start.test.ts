import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'

const ROOT = new URL('../..', import.meta.url).pathname
const TSX = join(ROOT, 'node_modules/.bin/tsx')

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
  })
}

interface Started {
  child: ChildProcess
  output: () => string
  exited: Promise<number | null>
}

/** Runs `src/node.ts` (what `npm start` runs) with only the given environment. */
async function start(env: Record<string, string>): Promise<Started> {
  const child = spawn(TSX, ['src/node.ts'], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let out = ''
  child.stdout?.on('data', (d) => {
    out += d
  })
  child.stderr?.on('data', (d) => {
    out += d
  })
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)))
  const deadline = Date.now() + 30_000
  while (!out.includes('Paylinks is listening')) {
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`did not start:\n${out}`)
    await new Promise((r) => setTimeout(r, 50))
  }
  return { child, output: () => out, exited }
}

const running: ChildProcess[] = []
const dirs: string[] = []
afterEach(() => {
  for (const child of running.splice(0)) child.kill('SIGKILL')
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

describe('npm start', () => {
  it('starts with no configuration, prints the admin token once, serves, and stops cleanly on SIGTERM', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'paylinks-start-'))
    dirs.push(dir)
    const port = await freePort()
    const env = { PORT: String(port), DATABASE_PATH: join(dir, 'db', 'paylinks.db') }

    const first = await start(env)
    running.push(first.child)
    const token = /Admin token \(shown once, keep it\): (plk_\w+)/.exec(first.output())?.[1]
    expect(token).toBeTruthy()
    expect(first.output()).toContain(`http://localhost:${port}/dashboard`)
    const health = await fetch(`http://127.0.0.1:${port}/healthz`)
    expect(await health.json()).toEqual({ status: 'ok', mode: 'simulator' })
    expect((await fetch(`http://127.0.0.1:${port}/_sim/gateway-public-key.pem`)).status).toBe(200)
    // The generated token is the merchant API key.
    const api = await fetch(`http://127.0.0.1:${port}/api/v1/links`, {
      headers: { 'x-api-key': token ?? '' },
    })
    expect(api.status).toBe(200)
    first.child.kill('SIGTERM')
    expect(await first.exited).toBe(0)
    expect(first.output()).toContain('"event":"stopping"')
    // Printed once, and in no log line after it.
    expect(first.output().split(token ?? 'no token')).toHaveLength(2)

    const second = await start(env)
    running.push(second.child)
    expect(second.output()).not.toContain('Admin token')
    const again = await fetch(`http://127.0.0.1:${port}/api/v1/links`, {
      headers: { 'x-api-key': token ?? '' },
    })
    expect(again.status).toBe(200)
    second.child.kill('SIGTERM')
    expect(await second.exited).toBe(0)
  }, 60_000)

  it('refuses to start in live mode without what it needs, naming each setting', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'paylinks-live-'))
    dirs.push(dir)
    const child = spawn(TSX, ['src/node.ts'], {
      cwd: ROOT,
      env: {
        PATH: process.env.PATH ?? '',
        GATEWAY_MODE: 'live',
        PUBLIC_URL: 'http://shop.example.dz',
        DATABASE_PATH: join(dir, 'p.db'),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    running.push(child)
    let out = ''
    child.stdout?.on('data', (d) => {
      out += d
    })
    child.stderr?.on('data', (d) => {
      out += d
    })
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve))
    expect(code).toBe(1)
    expect(out).toContain('MERCHANT_ACCOUNT')
    expect(out).toContain('PUBLIC_URL: must start with https://')
    expect(out).toContain('GATEWAY_SITE_URL')
  }, 30_000)
})
